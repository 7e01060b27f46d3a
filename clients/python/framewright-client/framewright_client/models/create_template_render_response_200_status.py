from typing import Literal

CreateTemplateRenderResponse200Status = Literal["done", "failed", "preparing", "queued", "rendering"]

CREATE_TEMPLATE_RENDER_RESPONSE_200_STATUS_VALUES: set[CreateTemplateRenderResponse200Status] = {
    "done",
    "failed",
    "preparing",
    "queued",
    "rendering",
}


def check_create_template_render_response_200_status(value: str) -> CreateTemplateRenderResponse200Status:
    if value in CREATE_TEMPLATE_RENDER_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_TEMPLATE_RENDER_RESPONSE_200_STATUS_VALUES!r}"
    )
