from typing import Literal

CancelRenderResponse200Format = Literal["gif", "jpeg", "mov", "mp3", "mp4", "png", "wav", "webm", "webp"]

CANCEL_RENDER_RESPONSE_200_FORMAT_VALUES: set[CancelRenderResponse200Format] = {
    "gif",
    "jpeg",
    "mov",
    "mp3",
    "mp4",
    "png",
    "wav",
    "webm",
    "webp",
}


def check_cancel_render_response_200_format(value: str) -> CancelRenderResponse200Format:
    if value in CANCEL_RENDER_RESPONSE_200_FORMAT_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CANCEL_RENDER_RESPONSE_200_FORMAT_VALUES!r}")
