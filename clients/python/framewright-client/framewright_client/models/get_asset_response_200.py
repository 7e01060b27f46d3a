from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.get_asset_response_200_kind import GetAssetResponse200Kind, check_get_asset_response_200_kind

T = TypeVar("T", bound="GetAssetResponse200")


@_attrs_define
class GetAssetResponse200:
    """
    Attributes:
        id (str):
        kind (GetAssetResponse200Kind):
        content_type (str): Sniffed from the bytes, not taken from the upload headers.
        size (int):
        name (None | str):
        url (str): Use this in movie documents (e.g. an image src).
        created_at (datetime.datetime):
    """

    id: str
    kind: GetAssetResponse200Kind
    content_type: str
    size: int
    name: None | str
    url: str
    created_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        kind: str = self.kind

        content_type = self.content_type

        size = self.size

        name: None | str
        name = self.name

        url = self.url

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "kind": kind,
                "contentType": content_type,
                "size": size,
                "name": name,
                "url": url,
                "createdAt": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        id = _fields.pop("id")

        kind = check_get_asset_response_200_kind(_fields.pop("kind"))

        content_type = _fields.pop("contentType")

        size = _fields.pop("size")

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(_fields.pop("name"))

        url = _fields.pop("url")

        created_at = datetime.datetime.fromisoformat(_fields.pop("createdAt"))

        get_asset_response_200 = cls(
            id=id,
            kind=kind,
            content_type=content_type,
            size=size,
            name=name,
            url=url,
            created_at=created_at,
        )

        return get_asset_response_200
