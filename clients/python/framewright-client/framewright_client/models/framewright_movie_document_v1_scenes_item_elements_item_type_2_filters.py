from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType2Filters")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType2Filters:
    """Colour filters, applied in this order (brightness, contrast, saturation, grayscale), each clamped to 0..1 as CSS
    filter functions are.

        Attributes:
            brightness (float | Unset): CSS brightness(): each of R, G, B multiplied by it (0 black, 1 unchanged, 2 twice as
                bright). Default: 1.0.
            contrast (float | Unset): CSS contrast(): (c - 0.5) * contrast + 0.5 for each channel c in 0..1 (0 flat grey, 1
                unchanged). Default: 1.0.
            saturation (float | Unset): CSS saturate(): the Filter Effects saturate matrix (0 grey, 1 unchanged, above 1
                more vivid). Default: 1.0.
            grayscale (float | Unset): CSS grayscale(): 0 unchanged, 1 fully grey; the same matrix as saturation 1 -
                grayscale. Default: 0.0.
    """

    brightness: float | Unset = 1.0
    contrast: float | Unset = 1.0
    saturation: float | Unset = 1.0
    grayscale: float | Unset = 0.0

    def to_dict(self) -> dict[str, Any]:
        brightness = self.brightness

        contrast = self.contrast

        saturation = self.saturation

        grayscale = self.grayscale

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if brightness is not UNSET:
            field_dict["brightness"] = brightness
        if contrast is not UNSET:
            field_dict["contrast"] = contrast
        if saturation is not UNSET:
            field_dict["saturation"] = saturation
        if grayscale is not UNSET:
            field_dict["grayscale"] = grayscale

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        brightness = _fields.pop("brightness", UNSET)

        contrast = _fields.pop("contrast", UNSET)

        saturation = _fields.pop("saturation", UNSET)

        grayscale = _fields.pop("grayscale", UNSET)

        framewright_movie_document_v1_scenes_item_elements_item_type_2_filters = cls(
            brightness=brightness,
            contrast=contrast,
            saturation=saturation,
            grayscale=grayscale,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_2_filters
