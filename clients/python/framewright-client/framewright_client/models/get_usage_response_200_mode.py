from typing import Literal

GetUsageResponse200Mode = Literal["live", "test"]

GET_USAGE_RESPONSE_200_MODE_VALUES: set[GetUsageResponse200Mode] = {
    "live",
    "test",
}


def check_get_usage_response_200_mode(value: str) -> GetUsageResponse200Mode:
    if value in GET_USAGE_RESPONSE_200_MODE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GET_USAGE_RESPONSE_200_MODE_VALUES!r}")
