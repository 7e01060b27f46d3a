from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.list_templates_response_200_items_item_body import ListTemplatesResponse200ItemsItemBody
    from ..models.list_templates_response_200_items_item_variables import ListTemplatesResponse200ItemsItemVariables


T = TypeVar("T", bound="ListTemplatesResponse200ItemsItem")


@_attrs_define
class ListTemplatesResponse200ItemsItem:
    """
    Attributes:
        id (str):
        name (str):
        body (ListTemplatesResponse200ItemsItemBody): The movie document verbatim as stored.
        variables (ListTemplatesResponse200ItemsItemVariables): Manifest mirroring body.variables.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    id: str
    name: str
    body: ListTemplatesResponse200ItemsItemBody
    variables: ListTemplatesResponse200ItemsItemVariables
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
        from ..models.list_templates_response_200_items_item_body import ListTemplatesResponse200ItemsItemBody  # noqa: PLC0415
        from ..models.list_templates_response_200_items_item_variables import ListTemplatesResponse200ItemsItemVariables  # noqa: PLC0415

        _fields = dict(src_dict)
        id = _fields.pop("id")

        name = _fields.pop("name")

        body = ListTemplatesResponse200ItemsItemBody.from_dict(_fields.pop("body"))

        variables = ListTemplatesResponse200ItemsItemVariables.from_dict(_fields.pop("variables"))

        created_at = datetime.datetime.fromisoformat(_fields.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(_fields.pop("updatedAt"))

        list_templates_response_200_items_item = cls(
            id=id,
            name=name,
            body=body,
            variables=variables,
            created_at=created_at,
            updated_at=updated_at,
        )

        return list_templates_response_200_items_item
