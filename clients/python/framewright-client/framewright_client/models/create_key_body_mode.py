from typing import Literal

CreateKeyBodyMode = Literal["live", "test"]

CREATE_KEY_BODY_MODE_VALUES: set[CreateKeyBodyMode] = {
    "live",
    "test",
}


def check_create_key_body_mode(value: str) -> CreateKeyBodyMode:
    if value in CREATE_KEY_BODY_MODE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CREATE_KEY_BODY_MODE_VALUES!r}")
