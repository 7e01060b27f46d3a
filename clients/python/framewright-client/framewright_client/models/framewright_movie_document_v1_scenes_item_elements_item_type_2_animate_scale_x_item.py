from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType2AnimateScaleXItem")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType2AnimateScaleXItem:
    """A key of the horizontal scale.

    Attributes:
        time (float | str): Seconds from the element's start, or a percentage of its duration ("50%").
        value (float): Horizontal scale about the centre.
        easing (str | Unset): How the segment from this key to the next moves: linear, ease, ease-in, ease-out, ease-in-
            out, cubic-bezier(x1, y1, x2, y2) with x1 and x2 in [0, 1], steps(n[, jump-start|jump-end]), spring(mass,
            stiffness, damping). Default: 'linear'.
    """

    time: float | str
    value: float
    easing: str | Unset = "linear"

    def to_dict(self) -> dict[str, Any]:
        time: float | str
        time = self.time

        value = self.value

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
        _fields = dict(src_dict)

        def _parse_time(data: object) -> float | str:
            return cast(float | str, data)

        time = _parse_time(_fields.pop("time"))

        value = _fields.pop("value")

        easing = _fields.pop("easing", UNSET)

        framewright_movie_document_v1_scenes_item_elements_item_type_2_animate_scale_x_item = cls(
            time=time,
            value=value,
            easing=easing,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_2_animate_scale_x_item
