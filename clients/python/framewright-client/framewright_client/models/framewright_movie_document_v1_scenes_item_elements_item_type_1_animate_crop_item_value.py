from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateCropItemValue")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateCropItemValue:
    """The part of the drawn picture that shows (a mask rectangle).

    Attributes:
        x (float): Left, output pixels from the picture’s left edge.
        y (float): Top, output pixels from the picture’s top edge.
        width (float): Width, output pixels.
        height (float): Height, output pixels.
    """

    x: float
    y: float
    width: float
    height: float

    def to_dict(self) -> dict[str, Any]:
        x = self.x

        y = self.y

        width = self.width

        height = self.height

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "x": x,
                "y": y,
                "width": width,
                "height": height,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        x = _fields.pop("x")

        y = _fields.pop("y")

        width = _fields.pop("width")

        height = _fields.pop("height")

        framewright_movie_document_v1_scenes_item_elements_item_type_1_animate_crop_item_value = cls(
            x=x,
            y=y,
            width=width,
            height=height,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_1_animate_crop_item_value
