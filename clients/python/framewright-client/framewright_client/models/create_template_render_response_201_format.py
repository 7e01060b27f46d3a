from typing import Literal

CreateTemplateRenderResponse201Format = Literal["gif", "jpeg", "mov", "mp3", "mp4", "png", "wav", "webm", "webp"]

CREATE_TEMPLATE_RENDER_RESPONSE_201_FORMAT_VALUES: set[CreateTemplateRenderResponse201Format] = {
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


def check_create_template_render_response_201_format(value: str) -> CreateTemplateRenderResponse201Format:
    if value in CREATE_TEMPLATE_RENDER_RESPONSE_201_FORMAT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_TEMPLATE_RENDER_RESPONSE_201_FORMAT_VALUES!r}"
    )
