from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType1Background")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType1Background:
    """Fills the empty part of the box of a fit "contain" picture with a blurred copy of the same picture scaled to cover
    the box (the 16:9-in-9:16 look). With cover or fill the picture covers its box and there is nothing to fill.

        Attributes:
            blur (float | Unset): Blur radius of the copy in output pixels (sigma as for blur). Default: 40.0.
            brightness (float | Unset): Brightness factor of the copy (below 1 darkens it behind the picture). Default: 1.0.
    """

    blur: float | Unset = 40.0
    brightness: float | Unset = 1.0

    def to_dict(self) -> dict[str, Any]:
        blur = self.blur

        brightness = self.brightness

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if blur is not UNSET:
            field_dict["blur"] = blur
        if brightness is not UNSET:
            field_dict["brightness"] = brightness

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        blur = _fields.pop("blur", UNSET)

        brightness = _fields.pop("brightness", UNSET)

        framewright_movie_document_v1_scenes_item_elements_item_type_1_background = cls(
            blur=blur,
            brightness=brightness,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_1_background
