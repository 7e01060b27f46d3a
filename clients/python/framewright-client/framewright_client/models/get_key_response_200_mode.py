from typing import Literal

GetKeyResponse200Mode = Literal["live", "test"]

GET_KEY_RESPONSE_200_MODE_VALUES: set[GetKeyResponse200Mode] = {
    "live",
    "test",
}


def check_get_key_response_200_mode(value: str) -> GetKeyResponse200Mode:
    if value in GET_KEY_RESPONSE_200_MODE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GET_KEY_RESPONSE_200_MODE_VALUES!r}")
