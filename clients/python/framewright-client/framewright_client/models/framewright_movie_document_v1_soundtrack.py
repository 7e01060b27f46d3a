from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="FramewrightMovieDocumentV1Soundtrack")


@_attrs_define
class FramewrightMovieDocumentV1Soundtrack:
    """Music under the whole movie, across scenes, lowered automatically under voiceover.

    Attributes:
        src (str): Absolute http(s) URL of the music (MP3, WAV, OGG, FLAC or M4A) (an uploaded asset's url, or any
            public address).
        volume (float | Unset): Linear gain of the sound: 1 as recorded, 0.5 about -6 dB, 0 silent. Default: 1.0.
        trim_start (float | Unset): Seconds into the source at which playing starts. Default: 0.0.
        loop (bool | Unset): Start again from trimStart when the source ends. Default: True.
        fade_in (float | Unset): Seconds over which the sound fades in at the start of the movie. Default: 0.0.
        fade_out (float | Unset): Seconds over which the sound fades out at the end of the movie. Default: 0.0.
        ducking (float | Unset): Gain applied while a voice element speaks: 0.25 (the default) is about -12 dB, 1 turns
            ducking off. Default: 0.25.
    """

    src: str
    volume: float | Unset = 1.0
    trim_start: float | Unset = 0.0
    loop: bool | Unset = True
    fade_in: float | Unset = 0.0
    fade_out: float | Unset = 0.0
    ducking: float | Unset = 0.25

    def to_dict(self) -> dict[str, Any]:
        src = self.src

        volume = self.volume

        trim_start = self.trim_start

        loop = self.loop

        fade_in = self.fade_in

        fade_out = self.fade_out

        ducking = self.ducking

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "src": src,
            }
        )
        if volume is not UNSET:
            field_dict["volume"] = volume
        if trim_start is not UNSET:
            field_dict["trimStart"] = trim_start
        if loop is not UNSET:
            field_dict["loop"] = loop
        if fade_in is not UNSET:
            field_dict["fadeIn"] = fade_in
        if fade_out is not UNSET:
            field_dict["fadeOut"] = fade_out
        if ducking is not UNSET:
            field_dict["ducking"] = ducking

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        src = _fields.pop("src")

        volume = _fields.pop("volume", UNSET)

        trim_start = _fields.pop("trimStart", UNSET)

        loop = _fields.pop("loop", UNSET)

        fade_in = _fields.pop("fadeIn", UNSET)

        fade_out = _fields.pop("fadeOut", UNSET)

        ducking = _fields.pop("ducking", UNSET)

        framewright_movie_document_v1_soundtrack = cls(
            src=src,
            volume=volume,
            trim_start=trim_start,
            loop=loop,
            fade_in=fade_in,
            fade_out=fade_out,
            ducking=ducking,
        )

        return framewright_movie_document_v1_soundtrack
