from typing import Literal

CreateKeyResponse201Mode = Literal["live", "test"]

CREATE_KEY_RESPONSE_201_MODE_VALUES: set[CreateKeyResponse201Mode] = {
    "live",
    "test",
}


def check_create_key_response_201_mode(value: str) -> CreateKeyResponse201Mode:
    if value in CREATE_KEY_RESPONSE_201_MODE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CREATE_KEY_RESPONSE_201_MODE_VALUES!r}")
