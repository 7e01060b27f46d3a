from typing import Literal

CreateRenderResponse201Format = Literal["gif", "jpeg", "mov", "mp3", "mp4", "png", "wav", "webm", "webp"]

CREATE_RENDER_RESPONSE_201_FORMAT_VALUES: set[CreateRenderResponse201Format] = {
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


def check_create_render_response_201_format(value: str) -> CreateRenderResponse201Format:
    if value in CREATE_RENDER_RESPONSE_201_FORMAT_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CREATE_RENDER_RESPONSE_201_FORMAT_VALUES!r}")
