from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6_animate_crop_item_value import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimateCropItemValue,
    )


T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimateCropItem")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimateCropItem:
    """A key of the crop rectangle.

    Attributes:
        time (float | str): Seconds from the element's start, or a percentage of its duration ("50%").
        value (FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimateCropItemValue): The part of the drawn picture
            that shows (a mask rectangle).
        easing (str | Unset): How the segment from this key to the next moves: linear, ease, ease-in, ease-out, ease-in-
            out, cubic-bezier(x1, y1, x2, y2) with x1 and x2 in [0, 1], steps(n[, jump-start|jump-end]), spring(mass,
            stiffness, damping). Default: 'linear'.
    """

    time: float | str
    value: FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimateCropItemValue
    easing: str | Unset = "linear"

    def to_dict(self) -> dict[str, Any]:
        time: float | str
        time = self.time

        value = self.value.to_dict()

        easing = self.easing

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "time": time,
                "value": value,
            }
        )
        if easing is not UNSET:
            field_dict["easing"] = easing

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6_animate_crop_item_value import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimateCropItemValue,  # noqa: PLC0415
        )

        _fields = dict(src_dict)

        def _parse_time(data: object) -> float | str:
            return cast(float | str, data)

        time = _parse_time(_fields.pop("time"))

        value = FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimateCropItemValue.from_dict(
            _fields.pop("value")
        )

        easing = _fields.pop("easing", UNSET)

        framewright_movie_document_v1_scenes_item_elements_item_type_6_animate_crop_item = cls(
            time=time,
            value=value,
            easing=easing,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_6_animate_crop_item
