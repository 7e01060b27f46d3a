from typing import Literal

GetTemplateResponse200VariablesAdditionalPropertyType = Literal["boolean", "color", "enum", "number", "string", "url"]

GET_TEMPLATE_RESPONSE_200_VARIABLES_ADDITIONAL_PROPERTY_TYPE_VALUES: set[
    GetTemplateResponse200VariablesAdditionalPropertyType
] = {
    "boolean",
    "color",
    "enum",
    "number",
    "string",
    "url",
}


def check_get_template_response_200_variables_additional_property_type(
    value: str,
) -> GetTemplateResponse200VariablesAdditionalPropertyType:
    if value in GET_TEMPLATE_RESPONSE_200_VARIABLES_ADDITIONAL_PROPERTY_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_TEMPLATE_RESPONSE_200_VARIABLES_ADDITIONAL_PROPERTY_TYPE_VALUES!r}"
    )
