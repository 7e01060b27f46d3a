from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType0Shadow")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType0Shadow:
    """A drop shadow of the glyphs (and of their stroke), drawn under them; `{}` is the default shadow.

    Attributes:
        color (str | Unset): Colour of the shadow (alpha included). Default: '#000000b3'.
        offset_x (float | Unset): Horizontal offset in output pixels (positive: to the right). Default: 0.0.
        offset_y (float | Unset): Vertical offset in output pixels (positive: down). Default: 4.0.
        blur (float | Unset): Blur radius in output pixels; 0 is a hard shadow. Default: 8.0.
    """

    color: str | Unset = "#000000b3"
    offset_x: float | Unset = 0.0
    offset_y: float | Unset = 4.0
    blur: float | Unset = 8.0

    def to_dict(self) -> dict[str, Any]:
        color = self.color

        offset_x = self.offset_x

        offset_y = self.offset_y

        blur = self.blur

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if color is not UNSET:
            field_dict["color"] = color
        if offset_x is not UNSET:
            field_dict["offsetX"] = offset_x
        if offset_y is not UNSET:
            field_dict["offsetY"] = offset_y
        if blur is not UNSET:
            field_dict["blur"] = blur

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        color = _fields.pop("color", UNSET)

        offset_x = _fields.pop("offsetX", UNSET)

        offset_y = _fields.pop("offsetY", UNSET)

        blur = _fields.pop("blur", UNSET)

        framewright_movie_document_v1_scenes_item_elements_item_type_0_shadow = cls(
            color=color,
            offset_x=offset_x,
            offset_y=offset_y,
            blur=blur,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_0_shadow
