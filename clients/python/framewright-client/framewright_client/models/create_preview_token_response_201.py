from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CreatePreviewTokenResponse201")


@_attrs_define
class CreatePreviewTokenResponse201:
    """
    Attributes:
        token (str): Send as Authorization: Bearer <token> to POST /v1/previews only.
        expires_at (datetime.datetime):
    """

    token: str
    expires_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        token = self.token

        expires_at = self.expires_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "token": token,
                "expires_at": expires_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        token = _fields.pop("token")

        expires_at = datetime.datetime.fromisoformat(_fields.pop("expires_at"))

        create_preview_token_response_201 = cls(
            token=token,
            expires_at=expires_at,
        )

        return create_preview_token_response_201
