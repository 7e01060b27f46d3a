from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_5_animate import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType5Animate,
    )


T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType5")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType5:
    """A sound inside a scene (an effect, a jingle); audio only.

    Attributes:
        id (str): Element id, unique across the document.
        type_ (Literal['audio']):
        src (str): Absolute http(s) URL of the sound (MP3, WAV, OGG, FLAC or M4A) (an uploaded asset's url, or any
            public address).
        start (float | Unset): Seconds from the scene start at which the element appears. Must be before the scene ends.
            Default: 0.0.
        duration (float | Unset): Seconds the sound plays. Default: its trimmed part (looped: until the scene ends).
            Must end within the scene.
        trim_start (float | Unset): Seconds into the source at which playing starts. Default: 0.0.
        trim_duration (float | Unset): Seconds of the source that play from trimStart. Default: to the end of the
            source.
        loop (bool | Unset): Play the trimmed part again from trimStart each time it ends, for as long as the element
            lasts. Default: False.
        volume (float | Unset): Linear gain of the sound: 1 as recorded, 0.5 about -6 dB, 0 silent. Default: 1.0.
        fade_in (float | Unset): Seconds over which the sound fades in from silence at its start. Default: 0.0.
        fade_out (float | Unset): Seconds over which the sound fades out to silence at its end. Default: 0.0.
        animate (FramewrightMovieDocumentV1ScenesItemElementsItemType5Animate | Unset): Keyframe tracks, one per
            property: values between keys follow each key's easing.
    """

    id: str
    type_: Literal["audio"]
    src: str
    start: float | Unset = 0.0
    duration: float | Unset = UNSET
    trim_start: float | Unset = 0.0
    trim_duration: float | Unset = UNSET
    loop: bool | Unset = False
    volume: float | Unset = 1.0
    fade_in: float | Unset = 0.0
    fade_out: float | Unset = 0.0
    animate: FramewrightMovieDocumentV1ScenesItemElementsItemType5Animate | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_

        src = self.src

        start = self.start

        duration = self.duration

        trim_start = self.trim_start

        trim_duration = self.trim_duration

        loop = self.loop

        volume = self.volume

        fade_in = self.fade_in

        fade_out = self.fade_out

        animate: dict[str, Any] | Unset = UNSET
        if not isinstance(self.animate, Unset):
            animate = self.animate.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "type": type_,
                "src": src,
            }
        )
        if start is not UNSET:
            field_dict["start"] = start
        if duration is not UNSET:
            field_dict["duration"] = duration
        if trim_start is not UNSET:
            field_dict["trimStart"] = trim_start
        if trim_duration is not UNSET:
            field_dict["trimDuration"] = trim_duration
        if loop is not UNSET:
            field_dict["loop"] = loop
        if volume is not UNSET:
            field_dict["volume"] = volume
        if fade_in is not UNSET:
            field_dict["fadeIn"] = fade_in
        if fade_out is not UNSET:
            field_dict["fadeOut"] = fade_out
        if animate is not UNSET:
            field_dict["animate"] = animate

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_5_animate import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType5Animate,  # noqa: PLC0415
        )

        _fields = dict(src_dict)
        id = _fields.pop("id")

        type_ = cast(Literal["audio"], _fields.pop("type"))
        if type_ != "audio":
            raise ValueError(f"type must match const 'audio', got '{type_}'")

        src = _fields.pop("src")

        start = _fields.pop("start", UNSET)

        duration = _fields.pop("duration", UNSET)

        trim_start = _fields.pop("trimStart", UNSET)

        trim_duration = _fields.pop("trimDuration", UNSET)

        loop = _fields.pop("loop", UNSET)

        volume = _fields.pop("volume", UNSET)

        fade_in = _fields.pop("fadeIn", UNSET)

        fade_out = _fields.pop("fadeOut", UNSET)

        _animate = _fields.pop("animate", UNSET)
        animate: FramewrightMovieDocumentV1ScenesItemElementsItemType5Animate | Unset
        if isinstance(_animate, Unset):
            animate = UNSET
        else:
            animate = FramewrightMovieDocumentV1ScenesItemElementsItemType5Animate.from_dict(_animate)

        framewright_movie_document_v1_scenes_item_elements_item_type_5 = cls(
            id=id,
            type_=type_,
            src=src,
            start=start,
            duration=duration,
            trim_start=trim_start,
            trim_duration=trim_duration,
            loop=loop,
            volume=volume,
            fade_in=fade_in,
            fade_out=fade_out,
            animate=animate,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_5
