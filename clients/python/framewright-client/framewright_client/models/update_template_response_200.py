from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.update_template_response_200_body import UpdateTemplateResponse200Body
    from ..models.update_template_response_200_variables import UpdateTemplateResponse200Variables
    from ..models.update_template_response_200_warnings_item import UpdateTemplateResponse200WarningsItem


T = TypeVar("T", bound="UpdateTemplateResponse200")


@_attrs_define
class UpdateTemplateResponse200:
    """
    Attributes:
        id (str):
        name (str):
        body (UpdateTemplateResponse200Body): The movie document verbatim as stored.
        variables (UpdateTemplateResponse200Variables): Manifest mirroring body.variables.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        warnings (list[UpdateTemplateResponse200WarningsItem]):
    """

    id: str
    name: str
    body: UpdateTemplateResponse200Body
    variables: UpdateTemplateResponse200Variables
    created_at: datetime.datetime
    updated_at: datetime.datetime
    warnings: list[UpdateTemplateResponse200WarningsItem]

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
        from ..models.update_template_response_200_body import UpdateTemplateResponse200Body  # noqa: PLC0415
        from ..models.update_template_response_200_variables import UpdateTemplateResponse200Variables  # noqa: PLC0415
        from ..models.update_template_response_200_warnings_item import UpdateTemplateResponse200WarningsItem  # noqa: PLC0415

        _fields = dict(src_dict)
        id = _fields.pop("id")

        name = _fields.pop("name")

        body = UpdateTemplateResponse200Body.from_dict(_fields.pop("body"))

        variables = UpdateTemplateResponse200Variables.from_dict(_fields.pop("variables"))

        created_at = datetime.datetime.fromisoformat(_fields.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(_fields.pop("updatedAt"))

        warnings = []
        _warnings = _fields.pop("warnings")
        for warnings_item_data in _warnings:
            warnings_item = UpdateTemplateResponse200WarningsItem.from_dict(warnings_item_data)

            warnings.append(warnings_item)

        update_template_response_200 = cls(
            id=id,
            name=name,
            body=body,
            variables=variables,
            created_at=created_at,
            updated_at=updated_at,
            warnings=warnings,
        )

        return update_template_response_200
