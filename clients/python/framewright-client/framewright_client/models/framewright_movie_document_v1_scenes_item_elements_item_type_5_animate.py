from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_5_animate_volume_item import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType5AnimateVolumeItem,
    )


T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType5Animate")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType5Animate:
    """Keyframe tracks, one per property: values between keys follow each key's easing.

    Attributes:
        volume (list[FramewrightMovieDocumentV1ScenesItemElementsItemType5AnimateVolumeItem] | Unset): Keys of the
            sound’s gain, in time order, within the element's time.
    """

    volume: list[FramewrightMovieDocumentV1ScenesItemElementsItemType5AnimateVolumeItem] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        volume: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.volume, Unset):
            volume = []
            for volume_item_data in self.volume:
                volume_item = volume_item_data.to_dict()
                volume.append(volume_item)

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if volume is not UNSET:
            field_dict["volume"] = volume

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_5_animate_volume_item import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType5AnimateVolumeItem,  # noqa: PLC0415
        )

        _fields = dict(src_dict)
        _volume = _fields.pop("volume", UNSET)
        volume: list[FramewrightMovieDocumentV1ScenesItemElementsItemType5AnimateVolumeItem] | Unset = UNSET
        if _volume is not UNSET:
            volume = []
            for volume_item_data in _volume:
                volume_item = FramewrightMovieDocumentV1ScenesItemElementsItemType5AnimateVolumeItem.from_dict(
                    volume_item_data
                )

                volume.append(volume_item)

        framewright_movie_document_v1_scenes_item_elements_item_type_5_animate = cls(
            volume=volume,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_5_animate
