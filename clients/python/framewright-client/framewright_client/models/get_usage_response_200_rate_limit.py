from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="GetUsageResponse200RateLimit")


@_attrs_define
class GetUsageResponse200RateLimit:
    """
    Attributes:
        limit (int): Requests per window.
        remaining (int):
        reset (int): Epoch seconds.
        window_sec (int):
    """

    limit: int
    remaining: int
    reset: int
    window_sec: int

    def to_dict(self) -> dict[str, Any]:
        limit = self.limit

        remaining = self.remaining

        reset = self.reset

        window_sec = self.window_sec

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "limit": limit,
                "remaining": remaining,
                "reset": reset,
                "windowSec": window_sec,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        limit = _fields.pop("limit")

        remaining = _fields.pop("remaining")

        reset = _fields.pop("reset")

        window_sec = _fields.pop("windowSec")

        get_usage_response_200_rate_limit = cls(
            limit=limit,
            remaining=remaining,
            reset=reset,
            window_sec=window_sec,
        )

        return get_usage_response_200_rate_limit
