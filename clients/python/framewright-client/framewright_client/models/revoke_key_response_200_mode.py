from typing import Literal

RevokeKeyResponse200Mode = Literal["live", "test"]

REVOKE_KEY_RESPONSE_200_MODE_VALUES: set[RevokeKeyResponse200Mode] = {
    "live",
    "test",
}


def check_revoke_key_response_200_mode(value: str) -> RevokeKeyResponse200Mode:
    if value in REVOKE_KEY_RESPONSE_200_MODE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {REVOKE_KEY_RESPONSE_200_MODE_VALUES!r}")
