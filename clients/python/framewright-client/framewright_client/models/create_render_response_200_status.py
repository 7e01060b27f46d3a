from typing import Literal

CreateRenderResponse200Status = Literal["done", "failed", "preparing", "queued", "rendering"]

CREATE_RENDER_RESPONSE_200_STATUS_VALUES: set[CreateRenderResponse200Status] = {
    "done",
    "failed",
    "preparing",
    "queued",
    "rendering",
}


def check_create_render_response_200_status(value: str) -> CreateRenderResponse200Status:
    if value in CREATE_RENDER_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CREATE_RENDER_RESPONSE_200_STATUS_VALUES!r}")
