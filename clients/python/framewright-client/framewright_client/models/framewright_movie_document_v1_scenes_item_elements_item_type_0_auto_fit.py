from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType0AutoFit")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType0AutoFit:
    """Shrinks fontSize, down to minFontSize, until the text fits maxWidth, maxHeight and maxLines; needs maxHeight or
    maxLines.

        Attributes:
            min_font_size (float): Smallest font size in output pixels the text may shrink to; at most the element's
                fontSize.
    """

    min_font_size: float

    def to_dict(self) -> dict[str, Any]:
        min_font_size = self.min_font_size

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "minFontSize": min_font_size,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        min_font_size = _fields.pop("minFontSize")

        framewright_movie_document_v1_scenes_item_elements_item_type_0_auto_fit = cls(
            min_font_size=min_font_size,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_0_auto_fit
