from typing import Literal

RollKeyResponse201CreatedMode = Literal["live", "test"]

ROLL_KEY_RESPONSE_201_CREATED_MODE_VALUES: set[RollKeyResponse201CreatedMode] = {
    "live",
    "test",
}


def check_roll_key_response_201_created_mode(value: str) -> RollKeyResponse201CreatedMode:
    if value in ROLL_KEY_RESPONSE_201_CREATED_MODE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ROLL_KEY_RESPONSE_201_CREATED_MODE_VALUES!r}")
