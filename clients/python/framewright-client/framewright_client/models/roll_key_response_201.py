from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.roll_key_response_201_created import RollKeyResponse201Created
    from ..models.roll_key_response_201_revoked import RollKeyResponse201Revoked


T = TypeVar("T", bound="RollKeyResponse201")


@_attrs_define
class RollKeyResponse201:
    """The replacement (with its secret, shown once) and the revoked key.

    Attributes:
        created (RollKeyResponse201Created):
        revoked (RollKeyResponse201Revoked):
    """

    created: RollKeyResponse201Created
    revoked: RollKeyResponse201Revoked

    def to_dict(self) -> dict[str, Any]:
        created = self.created.to_dict()

        revoked = self.revoked.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "created": created,
                "revoked": revoked,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.roll_key_response_201_created import RollKeyResponse201Created  # noqa: PLC0415
        from ..models.roll_key_response_201_revoked import RollKeyResponse201Revoked  # noqa: PLC0415

        _fields = dict(src_dict)
        created = RollKeyResponse201Created.from_dict(_fields.pop("created"))

        revoked = RollKeyResponse201Revoked.from_dict(_fields.pop("revoked"))

        roll_key_response_201 = cls(
            created=created,
            revoked=revoked,
        )

        return roll_key_response_201
