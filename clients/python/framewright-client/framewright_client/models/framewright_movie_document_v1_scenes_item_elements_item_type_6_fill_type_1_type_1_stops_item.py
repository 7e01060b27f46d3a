from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type1StopsItem")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type1StopsItem:
    """
    Attributes:
        offset (float): Where along the gradient, 0 (start) to 1 (end).
        color (str): Colour at that offset (alpha included).
    """

    offset: float
    color: str

    def to_dict(self) -> dict[str, Any]:
        offset = self.offset

        color = self.color

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "offset": offset,
                "color": color,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        offset = _fields.pop("offset")

        color = _fields.pop("color")

        framewright_movie_document_v1_scenes_item_elements_item_type_6_fill_type_1_type_1_stops_item = cls(
            offset=offset,
            color=color,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_6_fill_type_1_type_1_stops_item
