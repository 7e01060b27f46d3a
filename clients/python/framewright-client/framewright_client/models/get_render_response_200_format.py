from typing import Literal

GetRenderResponse200Format = Literal["gif", "jpeg", "mov", "mp3", "mp4", "png", "wav", "webm", "webp"]

GET_RENDER_RESPONSE_200_FORMAT_VALUES: set[GetRenderResponse200Format] = {
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


def check_get_render_response_200_format(value: str) -> GetRenderResponse200Format:
    if value in GET_RENDER_RESPONSE_200_FORMAT_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GET_RENDER_RESPONSE_200_FORMAT_VALUES!r}")
