from typing import Literal

ListRendersResponse200ItemsItemStatus = Literal["done", "failed", "preparing", "queued", "rendering"]

LIST_RENDERS_RESPONSE_200_ITEMS_ITEM_STATUS_VALUES: set[ListRendersResponse200ItemsItemStatus] = {
    "done",
    "failed",
    "preparing",
    "queued",
    "rendering",
}


def check_list_renders_response_200_items_item_status(value: str) -> ListRendersResponse200ItemsItemStatus:
    if value in LIST_RENDERS_RESPONSE_200_ITEMS_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_RENDERS_RESPONSE_200_ITEMS_ITEM_STATUS_VALUES!r}"
    )
