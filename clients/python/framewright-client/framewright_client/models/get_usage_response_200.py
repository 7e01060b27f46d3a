from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.get_usage_response_200_mode import GetUsageResponse200Mode, check_get_usage_response_200_mode
from ..models.get_usage_response_200_plan import GetUsageResponse200Plan, check_get_usage_response_200_plan

if TYPE_CHECKING:
    from ..models.get_usage_response_200_concurrency import GetUsageResponse200Concurrency
    from ..models.get_usage_response_200_credits import GetUsageResponse200Credits
    from ..models.get_usage_response_200_rate_limit import GetUsageResponse200RateLimit


T = TypeVar("T", bound="GetUsageResponse200")


@_attrs_define
class GetUsageResponse200:
    """
    Attributes:
        plan (GetUsageResponse200Plan):
        mode (GetUsageResponse200Mode):
        credits_ (GetUsageResponse200Credits):
        concurrency (GetUsageResponse200Concurrency):
        rate_limit (GetUsageResponse200RateLimit):
        retention_days (int):
    """

    plan: GetUsageResponse200Plan
    mode: GetUsageResponse200Mode
    credits_: GetUsageResponse200Credits
    concurrency: GetUsageResponse200Concurrency
    rate_limit: GetUsageResponse200RateLimit
    retention_days: int

    def to_dict(self) -> dict[str, Any]:
        plan: str = self.plan

        mode: str = self.mode

        credits_ = self.credits_.to_dict()

        concurrency = self.concurrency.to_dict()

        rate_limit = self.rate_limit.to_dict()

        retention_days = self.retention_days

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "plan": plan,
                "mode": mode,
                "credits": credits_,
                "concurrency": concurrency,
                "rateLimit": rate_limit,
                "retentionDays": retention_days,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.get_usage_response_200_concurrency import GetUsageResponse200Concurrency  # noqa: PLC0415
        from ..models.get_usage_response_200_credits import GetUsageResponse200Credits  # noqa: PLC0415
        from ..models.get_usage_response_200_rate_limit import GetUsageResponse200RateLimit  # noqa: PLC0415

        _fields = dict(src_dict)
        plan = check_get_usage_response_200_plan(_fields.pop("plan"))

        mode = check_get_usage_response_200_mode(_fields.pop("mode"))

        credits_ = GetUsageResponse200Credits.from_dict(_fields.pop("credits"))

        concurrency = GetUsageResponse200Concurrency.from_dict(_fields.pop("concurrency"))

        rate_limit = GetUsageResponse200RateLimit.from_dict(_fields.pop("rateLimit"))

        retention_days = _fields.pop("retentionDays")

        get_usage_response_200 = cls(
            plan=plan,
            mode=mode,
            credits_=credits_,
            concurrency=concurrency,
            rate_limit=rate_limit,
            retention_days=retention_days,
        )

        return get_usage_response_200
