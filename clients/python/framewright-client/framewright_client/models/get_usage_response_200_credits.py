from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="GetUsageResponse200Credits")


@_attrs_define
class GetUsageResponse200Credits:
    """
    Attributes:
        balance (int):
        reserved (int): Held by renders queued or in progress.
        available (int): balance - reserved.
    """

    balance: int
    reserved: int
    available: int

    def to_dict(self) -> dict[str, Any]:
        balance = self.balance

        reserved = self.reserved

        available = self.available

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "balance": balance,
                "reserved": reserved,
                "available": available,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        balance = _fields.pop("balance")

        reserved = _fields.pop("reserved")

        available = _fields.pop("available")

        get_usage_response_200_credits = cls(
            balance=balance,
            reserved=reserved,
            available=available,
        )

        return get_usage_response_200_credits
