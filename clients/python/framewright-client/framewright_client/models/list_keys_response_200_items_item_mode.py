from typing import Literal

ListKeysResponse200ItemsItemMode = Literal["live", "test"]

LIST_KEYS_RESPONSE_200_ITEMS_ITEM_MODE_VALUES: set[ListKeysResponse200ItemsItemMode] = {
    "live",
    "test",
}


def check_list_keys_response_200_items_item_mode(value: str) -> ListKeysResponse200ItemsItemMode:
    if value in LIST_KEYS_RESPONSE_200_ITEMS_ITEM_MODE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_KEYS_RESPONSE_200_ITEMS_ITEM_MODE_VALUES!r}")
