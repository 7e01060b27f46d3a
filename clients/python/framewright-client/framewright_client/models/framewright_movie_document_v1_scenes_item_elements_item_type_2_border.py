from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType2Border")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType2Border:
    """A border inside the picture edge.

    Attributes:
        width (float): Width in output pixels, drawn inside the picture along its (rounded) edge.
        color (str): Colour of the border (alpha included).
    """

    width: float
    color: str

    def to_dict(self) -> dict[str, Any]:
        width = self.width

        color = self.color

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "width": width,
                "color": color,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        width = _fields.pop("width")

        color = _fields.pop("color")

        framewright_movie_document_v1_scenes_item_elements_item_type_2_border = cls(
            width=width,
            color=color,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_2_border
