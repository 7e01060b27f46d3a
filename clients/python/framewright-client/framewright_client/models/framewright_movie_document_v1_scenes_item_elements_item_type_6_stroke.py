from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType6Stroke")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType6Stroke:
    """The outline of the shape.

    Attributes:
        width (float): Width in output pixels, centred on the outline (half of it outside the shape).
        color (str): Colour of the stroke (alpha included).
        dash (list[float] | Unset): Dash pattern in output pixels: on, off, on, off… (an odd list repeats once more, as
            in SVG). Default: a solid stroke.
    """

    width: float
    color: str
    dash: list[float] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        width = self.width

        color = self.color

        dash: list[float] | Unset = UNSET
        if not isinstance(self.dash, Unset):
            dash = self.dash

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "width": width,
                "color": color,
            }
        )
        if dash is not UNSET:
            field_dict["dash"] = dash

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        width = _fields.pop("width")

        color = _fields.pop("color")

        dash = cast(list[float], _fields.pop("dash", UNSET))

        framewright_movie_document_v1_scenes_item_elements_item_type_6_stroke = cls(
            width=width,
            color=color,
            dash=dash,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_6_stroke
