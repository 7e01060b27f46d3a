from typing import Literal

UpdateTemplateResponse200VariablesAdditionalPropertyType = Literal[
    "boolean", "color", "enum", "number", "string", "url"
]

UPDATE_TEMPLATE_RESPONSE_200_VARIABLES_ADDITIONAL_PROPERTY_TYPE_VALUES: set[
    UpdateTemplateResponse200VariablesAdditionalPropertyType
] = {
    "boolean",
    "color",
    "enum",
    "number",
    "string",
    "url",
}


def check_update_template_response_200_variables_additional_property_type(
    value: str,
) -> UpdateTemplateResponse200VariablesAdditionalPropertyType:
    if value in UPDATE_TEMPLATE_RESPONSE_200_VARIABLES_ADDITIONAL_PROPERTY_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPDATE_TEMPLATE_RESPONSE_200_VARIABLES_ADDITIONAL_PROPERTY_TYPE_VALUES!r}"
    )
