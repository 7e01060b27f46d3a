from typing import Literal

ListTemplatesResponse200ItemsItemVariablesAdditionalPropertyType = Literal[
    "boolean", "color", "enum", "number", "string", "url"
]

LIST_TEMPLATES_RESPONSE_200_ITEMS_ITEM_VARIABLES_ADDITIONAL_PROPERTY_TYPE_VALUES: set[
    ListTemplatesResponse200ItemsItemVariablesAdditionalPropertyType
] = {
    "boolean",
    "color",
    "enum",
    "number",
    "string",
    "url",
}


def check_list_templates_response_200_items_item_variables_additional_property_type(
    value: str,
) -> ListTemplatesResponse200ItemsItemVariablesAdditionalPropertyType:
    if value in LIST_TEMPLATES_RESPONSE_200_ITEMS_ITEM_VARIABLES_ADDITIONAL_PROPERTY_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_TEMPLATES_RESPONSE_200_ITEMS_ITEM_VARIABLES_ADDITIONAL_PROPERTY_TYPE_VALUES!r}"
    )
