from typing import Literal

CreateTemplateResponse201VariablesAdditionalPropertyType = Literal[
    "boolean", "color", "enum", "number", "string", "url"
]

CREATE_TEMPLATE_RESPONSE_201_VARIABLES_ADDITIONAL_PROPERTY_TYPE_VALUES: set[
    CreateTemplateResponse201VariablesAdditionalPropertyType
] = {
    "boolean",
    "color",
    "enum",
    "number",
    "string",
    "url",
}


def check_create_template_response_201_variables_additional_property_type(
    value: str,
) -> CreateTemplateResponse201VariablesAdditionalPropertyType:
    if value in CREATE_TEMPLATE_RESPONSE_201_VARIABLES_ADDITIONAL_PROPERTY_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_TEMPLATE_RESPONSE_201_VARIABLES_ADDITIONAL_PROPERTY_TYPE_VALUES!r}"
    )
