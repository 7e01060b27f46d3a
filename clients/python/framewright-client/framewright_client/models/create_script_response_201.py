from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.create_script_response_201_meta import CreateScriptResponse201Meta
    from ..models.create_script_response_201_scenes_item import CreateScriptResponse201ScenesItem


T = TypeVar("T", bound="CreateScriptResponse201")


@_attrs_define
class CreateScriptResponse201:
    """
    Attributes:
        id (str):
        title (None | str): Null when includeTitle was false.
        description (None | str): Null when includeDescription was false.
        scenes (list[CreateScriptResponse201ScenesItem]):
        meta (CreateScriptResponse201Meta):
        created_at (datetime.datetime):
    """

    id: str
    title: None | str
    description: None | str
    scenes: list[CreateScriptResponse201ScenesItem]
    meta: CreateScriptResponse201Meta
    created_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        title: None | str
        title = self.title

        description: None | str
        description = self.description

        scenes = []
        for scenes_item_data in self.scenes:
            scenes_item = scenes_item_data.to_dict()
            scenes.append(scenes_item)

        meta = self.meta.to_dict()

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "title": title,
                "description": description,
                "scenes": scenes,
                "meta": meta,
                "createdAt": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_script_response_201_meta import CreateScriptResponse201Meta  # noqa: PLC0415
        from ..models.create_script_response_201_scenes_item import CreateScriptResponse201ScenesItem  # noqa: PLC0415

        _fields = dict(src_dict)
        id = _fields.pop("id")

        def _parse_title(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        title = _parse_title(_fields.pop("title"))

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(_fields.pop("description"))

        scenes = []
        _scenes = _fields.pop("scenes")
        for scenes_item_data in _scenes:
            scenes_item = CreateScriptResponse201ScenesItem.from_dict(scenes_item_data)

            scenes.append(scenes_item)

        meta = CreateScriptResponse201Meta.from_dict(_fields.pop("meta"))

        created_at = datetime.datetime.fromisoformat(_fields.pop("createdAt"))

        create_script_response_201 = cls(
            id=id,
            title=title,
            description=description,
            scenes=scenes,
            meta=meta,
            created_at=created_at,
        )

        return create_script_response_201
