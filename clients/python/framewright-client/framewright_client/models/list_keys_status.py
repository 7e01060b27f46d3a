from typing import Literal

ListKeysStatus = Literal["active", "revoked"]

LIST_KEYS_STATUS_VALUES: set[ListKeysStatus] = {
    "active",
    "revoked",
}


def check_list_keys_status(value: str) -> ListKeysStatus:
    if value in LIST_KEYS_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_KEYS_STATUS_VALUES!r}")
