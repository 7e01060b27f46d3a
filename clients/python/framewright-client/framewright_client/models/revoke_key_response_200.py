from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.revoke_key_response_200_mode import RevokeKeyResponse200Mode, check_revoke_key_response_200_mode

T = TypeVar("T", bound="RevokeKeyResponse200")


@_attrs_define
class RevokeKeyResponse200:
    """
    Attributes:
        id (str): key_…
        mode (RevokeKeyResponse200Mode):
        prefix (str): The first 12 characters of the secret, e.g. fw_live_Qv4c: what lists show.
        created_at (datetime.datetime):
        last_used_at (datetime.datetime | None): Last authenticated request, to the minute; null if never.
        revoked_at (datetime.datetime | None):
        replaced_by (None | str): The key that replaced it when it was rolled.
        current (bool): True for the key that made this request.
    """

    id: str
    mode: RevokeKeyResponse200Mode
    prefix: str
    created_at: datetime.datetime
    last_used_at: datetime.datetime | None
    revoked_at: datetime.datetime | None
    replaced_by: None | str
    current: bool

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        mode: str = self.mode

        prefix = self.prefix

        created_at = self.created_at.isoformat()

        last_used_at: None | str
        if isinstance(self.last_used_at, datetime.datetime):
            last_used_at = self.last_used_at.isoformat()
        else:
            last_used_at = self.last_used_at

        revoked_at: None | str
        if isinstance(self.revoked_at, datetime.datetime):
            revoked_at = self.revoked_at.isoformat()
        else:
            revoked_at = self.revoked_at

        replaced_by: None | str
        replaced_by = self.replaced_by

        current = self.current

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "mode": mode,
                "prefix": prefix,
                "createdAt": created_at,
                "lastUsedAt": last_used_at,
                "revokedAt": revoked_at,
                "replacedBy": replaced_by,
                "current": current,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        id = _fields.pop("id")

        mode = check_revoke_key_response_200_mode(_fields.pop("mode"))

        prefix = _fields.pop("prefix")

        created_at = datetime.datetime.fromisoformat(_fields.pop("createdAt"))

        def _parse_last_used_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_used_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_used_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_used_at = _parse_last_used_at(_fields.pop("lastUsedAt"))

        def _parse_revoked_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                revoked_at_type_0 = datetime.datetime.fromisoformat(data)

                return revoked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        revoked_at = _parse_revoked_at(_fields.pop("revokedAt"))

        def _parse_replaced_by(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        replaced_by = _parse_replaced_by(_fields.pop("replacedBy"))

        current = _fields.pop("current")

        revoke_key_response_200 = cls(
            id=id,
            mode=mode,
            prefix=prefix,
            created_at=created_at,
            last_used_at=last_used_at,
            revoked_at=revoked_at,
            replaced_by=replaced_by,
            current=current,
        )

        return revoke_key_response_200
