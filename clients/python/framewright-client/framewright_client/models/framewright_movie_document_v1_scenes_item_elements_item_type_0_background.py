from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType0Background")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType0Background:
    """A box behind the text block, under the shadow, stroke and fill.

    Attributes:
        color (str): Colour of the box (alpha included).
        padding (float | Unset): Space in output pixels between the text and the box's edges, on every side. Default:
            0.3 × fontSize.
        radius (float | Unset): Corner radius in output pixels (at most half the box's shorter side is used). Default:
            0.0.
    """

    color: str
    padding: float | Unset = UNSET
    radius: float | Unset = 0.0

    def to_dict(self) -> dict[str, Any]:
        color = self.color

        padding = self.padding

        radius = self.radius

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "color": color,
            }
        )
        if padding is not UNSET:
            field_dict["padding"] = padding
        if radius is not UNSET:
            field_dict["radius"] = radius

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        color = _fields.pop("color")

        padding = _fields.pop("padding", UNSET)

        radius = _fields.pop("radius", UNSET)

        framewright_movie_document_v1_scenes_item_elements_item_type_0_background = cls(
            color=color,
            padding=padding,
            radius=radius,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_0_background
