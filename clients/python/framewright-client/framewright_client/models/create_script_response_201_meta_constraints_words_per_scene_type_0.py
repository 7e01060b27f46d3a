from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CreateScriptResponse201MetaConstraintsWordsPerSceneType0")


@_attrs_define
class CreateScriptResponse201MetaConstraintsWordsPerSceneType0:
    """
    Attributes:
        min_ (int | None):
        max_ (int | None):
    """

    min_: int | None
    max_: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        min_: int | None
        min_ = self.min_

        max_: int | None
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

        def _parse_min_(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        min_ = _parse_min_(_fields.pop("min"))

        def _parse_max_(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        max_ = _parse_max_(_fields.pop("max"))

        create_script_response_201_meta_constraints_words_per_scene_type_0 = cls(
            min_=min_,
            max_=max_,
        )

        create_script_response_201_meta_constraints_words_per_scene_type_0.additional_properties = _fields
        return create_script_response_201_meta_constraints_words_per_scene_type_0

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
