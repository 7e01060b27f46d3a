from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="FramewrightMovieDocumentV1LoudnessType1")


@_attrs_define
class FramewrightMovieDocumentV1LoudnessType1:
    """The final mix normalised to one integrated loudness, measured first and then gained (limited only where the true-
    peak ceiling requires).

        Attributes:
            target (float | Unset): Integrated loudness of the whole mix in LUFS (EBU R128 / ITU-R BS.1770), as ffmpeg's
                ebur128 filter measures it. -14 suits streaming platforms, -23 broadcast, -16 podcasts. Default: -14.0.
            true_peak (float | Unset): Ceiling for the true peak (4x oversampled) in dBTP: a mix that would pass it at the
                target loudness is limited. Default: -1.0.
    """

    target: float | Unset = -14.0
    true_peak: float | Unset = -1.0

    def to_dict(self) -> dict[str, Any]:
        target = self.target

        true_peak = self.true_peak

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if target is not UNSET:
            field_dict["target"] = target
        if true_peak is not UNSET:
            field_dict["truePeak"] = true_peak

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        target = _fields.pop("target", UNSET)

        true_peak = _fields.pop("truePeak", UNSET)

        framewright_movie_document_v1_loudness_type_1 = cls(
            target=target,
            true_peak=true_peak,
        )

        return framewright_movie_document_v1_loudness_type_1
