from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType4Stroke")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType4Stroke:
    """An outline around the glyphs, centred on their outline and drawn under the fill.

    Attributes:
        width (float): Width of the outline in output pixels, centred on the glyph outline (half of it shows outside).
        color (str): Colour of the outline.
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

        framewright_movie_document_v1_scenes_item_elements_item_type_4_stroke = cls(
            width=width,
            color=color,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_4_stroke
