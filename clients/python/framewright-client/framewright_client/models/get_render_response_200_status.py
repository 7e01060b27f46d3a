from typing import Literal

GetRenderResponse200Status = Literal["done", "failed", "preparing", "queued", "rendering"]

GET_RENDER_RESPONSE_200_STATUS_VALUES: set[GetRenderResponse200Status] = {
    "done",
    "failed",
    "preparing",
    "queued",
    "rendering",
}


def check_get_render_response_200_status(value: str) -> GetRenderResponse200Status:
    if value in GET_RENDER_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GET_RENDER_RESPONSE_200_STATUS_VALUES!r}")
