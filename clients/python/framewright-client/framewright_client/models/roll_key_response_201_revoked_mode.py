from typing import Literal

RollKeyResponse201RevokedMode = Literal["live", "test"]

ROLL_KEY_RESPONSE_201_REVOKED_MODE_VALUES: set[RollKeyResponse201RevokedMode] = {
    "live",
    "test",
}


def check_roll_key_response_201_revoked_mode(value: str) -> RollKeyResponse201RevokedMode:
    if value in ROLL_KEY_RESPONSE_201_REVOKED_MODE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ROLL_KEY_RESPONSE_201_REVOKED_MODE_VALUES!r}")
