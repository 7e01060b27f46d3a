from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.create_template_response_201_body import CreateTemplateResponse201Body
    from ..models.create_template_response_201_variables import CreateTemplateResponse201Variables
    from ..models.create_template_response_201_warnings_item import CreateTemplateResponse201WarningsItem


T = TypeVar("T", bound="CreateTemplateResponse201")


@_attrs_define
class CreateTemplateResponse201:
    """
    Attributes:
        id (str):
        name (str):
        body (CreateTemplateResponse201Body): The movie document verbatim as stored.
        variables (CreateTemplateResponse201Variables): Manifest mirroring body.variables.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        warnings (list[CreateTemplateResponse201WarningsItem]):
    """

    id: str
    name: str
    body: CreateTemplateResponse201Body
    variables: CreateTemplateResponse201Variables
    created_at: datetime.datetime
    updated_at: datetime.datetime
    warnings: list[CreateTemplateResponse201WarningsItem]

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        body = self.body.to_dict()

        variables = self.variables.to_dict()

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        warnings = []
        for warnings_item_data in self.warnings:
            warnings_item = warnings_item_data.to_dict()
            warnings.append(warnings_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "body": body,
                "variables": variables,
                "createdAt": created_at,
                "updatedAt": updated_at,
                "warnings": warnings,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_template_response_201_body import CreateTemplateResponse201Body  # noqa: PLC0415
        from ..models.create_template_response_201_variables import CreateTemplateResponse201Variables  # noqa: PLC0415
        from ..models.create_template_response_201_warnings_item import CreateTemplateResponse201WarningsItem  # noqa: PLC0415

        _fields = dict(src_dict)
        id = _fields.pop("id")

        name = _fields.pop("name")

        body = CreateTemplateResponse201Body.from_dict(_fields.pop("body"))

        variables = CreateTemplateResponse201Variables.from_dict(_fields.pop("variables"))

        created_at = datetime.datetime.fromisoformat(_fields.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(_fields.pop("updatedAt"))

        warnings = []
        _warnings = _fields.pop("warnings")
        for warnings_item_data in _warnings:
            warnings_item = CreateTemplateResponse201WarningsItem.from_dict(warnings_item_data)

            warnings.append(warnings_item)

        create_template_response_201 = cls(
            id=id,
            name=name,
            body=body,
            variables=variables,
            created_at=created_at,
            updated_at=updated_at,
            warnings=warnings,
        )

        return create_template_response_201
