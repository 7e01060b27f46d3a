from typing import Literal

ListRendersStatus = Literal["done", "failed", "preparing", "queued", "rendering"]

LIST_RENDERS_STATUS_VALUES: set[ListRendersStatus] = {
    "done",
    "failed",
    "preparing",
    "queued",
    "rendering",
}


def check_list_renders_status(value: str) -> ListRendersStatus:
    if value in LIST_RENDERS_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_RENDERS_STATUS_VALUES!r}")
