from typing import Literal

CreateTemplateRenderResponse201Status = Literal["done", "failed", "preparing", "queued", "rendering"]

CREATE_TEMPLATE_RENDER_RESPONSE_201_STATUS_VALUES: set[CreateTemplateRenderResponse201Status] = {
    "done",
    "failed",
    "preparing",
    "queued",
    "rendering",
}


def check_create_template_render_response_201_status(value: str) -> CreateTemplateRenderResponse201Status:
    if value in CREATE_TEMPLATE_RENDER_RESPONSE_201_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_TEMPLATE_RENDER_RESPONSE_201_STATUS_VALUES!r}"
    )
