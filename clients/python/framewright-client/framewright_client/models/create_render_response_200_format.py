from typing import Literal

CreateRenderResponse200Format = Literal["gif", "jpeg", "mov", "mp3", "mp4", "png", "wav", "webm", "webp"]

CREATE_RENDER_RESPONSE_200_FORMAT_VALUES: set[CreateRenderResponse200Format] = {
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


def check_create_render_response_200_format(value: str) -> CreateRenderResponse200Format:
    if value in CREATE_RENDER_RESPONSE_200_FORMAT_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CREATE_RENDER_RESPONSE_200_FORMAT_VALUES!r}")
