from typing import Literal

CheckTemplateResponse200VariablesAdditionalPropertyType = Literal["boolean", "color", "enum", "number", "string", "url"]

CHECK_TEMPLATE_RESPONSE_200_VARIABLES_ADDITIONAL_PROPERTY_TYPE_VALUES: set[
    CheckTemplateResponse200VariablesAdditionalPropertyType
] = {
    "boolean",
    "color",
    "enum",
    "number",
    "string",
    "url",
}


def check_check_template_response_200_variables_additional_property_type(
    value: str,
) -> CheckTemplateResponse200VariablesAdditionalPropertyType:
    if value in CHECK_TEMPLATE_RESPONSE_200_VARIABLES_ADDITIONAL_PROPERTY_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CHECK_TEMPLATE_RESPONSE_200_VARIABLES_ADDITIONAL_PROPERTY_TYPE_VALUES!r}"
    )
