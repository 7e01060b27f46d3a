from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.get_template_response_200_body import GetTemplateResponse200Body
    from ..models.get_template_response_200_variables import GetTemplateResponse200Variables


T = TypeVar("T", bound="GetTemplateResponse200")


@_attrs_define
class GetTemplateResponse200:
    """
    Attributes:
        id (str):
        name (str):
        body (GetTemplateResponse200Body): The movie document verbatim as stored.
        variables (GetTemplateResponse200Variables): Manifest mirroring body.variables.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    id: str
    name: str
    body: GetTemplateResponse200Body
    variables: GetTemplateResponse200Variables
    created_at: datetime.datetime
    updated_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        body = self.body.to_dict()

        variables = self.variables.to_dict()

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "body": body,
                "variables": variables,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.get_template_response_200_body import GetTemplateResponse200Body  # noqa: PLC0415
        from ..models.get_template_response_200_variables import GetTemplateResponse200Variables  # noqa: PLC0415

        _fields = dict(src_dict)
        id = _fields.pop("id")

        name = _fields.pop("name")

        body = GetTemplateResponse200Body.from_dict(_fields.pop("body"))

        variables = GetTemplateResponse200Variables.from_dict(_fields.pop("variables"))

        created_at = datetime.datetime.fromisoformat(_fields.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(_fields.pop("updatedAt"))

        get_template_response_200 = cls(
            id=id,
            name=name,
            body=body,
            variables=variables,
            created_at=created_at,
            updated_at=updated_at,
        )

        return get_template_response_200
