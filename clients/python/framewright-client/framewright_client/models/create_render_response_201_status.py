from typing import Literal

CreateRenderResponse201Status = Literal["done", "failed", "preparing", "queued", "rendering"]

CREATE_RENDER_RESPONSE_201_STATUS_VALUES: set[CreateRenderResponse201Status] = {
    "done",
    "failed",
    "preparing",
    "queued",
    "rendering",
}


def check_create_render_response_201_status(value: str) -> CreateRenderResponse201Status:
    if value in CREATE_RENDER_RESPONSE_201_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CREATE_RENDER_RESPONSE_201_STATUS_VALUES!r}")
