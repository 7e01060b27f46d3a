from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="GetUsageResponse200Concurrency")


@_attrs_define
class GetUsageResponse200Concurrency:
    """
    Attributes:
        limit (int):
        active (int):
    """

    limit: int
    active: int

    def to_dict(self) -> dict[str, Any]:
        limit = self.limit

        active = self.active

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "limit": limit,
                "active": active,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        limit = _fields.pop("limit")

        active = _fields.pop("active")

        get_usage_response_200_concurrency = cls(
            limit=limit,
            active=active,
        )

        return get_usage_response_200_concurrency
