from typing import Literal

CancelRenderResponse200Status = Literal["done", "failed", "preparing", "queued", "rendering"]

CANCEL_RENDER_RESPONSE_200_STATUS_VALUES: set[CancelRenderResponse200Status] = {
    "done",
    "failed",
    "preparing",
    "queued",
    "rendering",
}


def check_cancel_render_response_200_status(value: str) -> CancelRenderResponse200Status:
    if value in CANCEL_RENDER_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CANCEL_RENDER_RESPONSE_200_STATUS_VALUES!r}")
