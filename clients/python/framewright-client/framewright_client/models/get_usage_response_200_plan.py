from typing import Literal

GetUsageResponse200Plan = Literal["pro", "starter", "studio", "trial"]

GET_USAGE_RESPONSE_200_PLAN_VALUES: set[GetUsageResponse200Plan] = {
    "pro",
    "starter",
    "studio",
    "trial",
}


def check_get_usage_response_200_plan(value: str) -> GetUsageResponse200Plan:
    if value in GET_USAGE_RESPONSE_200_PLAN_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GET_USAGE_RESPONSE_200_PLAN_VALUES!r}")
