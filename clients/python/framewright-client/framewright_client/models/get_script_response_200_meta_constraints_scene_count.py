from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="GetScriptResponse200MetaConstraintsSceneCount")


@_attrs_define
class GetScriptResponse200MetaConstraintsSceneCount:
    """Allowed scene count: min = max = sceneCount when set, else 10-14.

    Attributes:
        min_ (int):
        max_ (int):
    """

    min_: int
    max_: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        min_ = self.min_

        max_ = self.max_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "min": min_,
                "max": max_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        min_ = _fields.pop("min")

        max_ = _fields.pop("max")

        get_script_response_200_meta_constraints_scene_count = cls(
            min_=min_,
            max_=max_,
        )

        get_script_response_200_meta_constraints_scene_count.additional_properties = _fields
        return get_script_response_200_meta_constraints_scene_count

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
