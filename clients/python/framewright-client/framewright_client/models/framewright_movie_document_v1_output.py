from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="FramewrightMovieDocumentV1Output")


@_attrs_define
class FramewrightMovieDocumentV1Output:
    """What the render makes: the file format, and for a still the moment it shows.

    Attributes:
        format_ (Literal['gif'] | Literal['jpeg'] | Literal['mov'] | Literal['mp3'] | Literal['mp4'] | Literal['png'] |
            Literal['wav'] | Literal['webm'] | Literal['webp'] | Unset): mp4: H.264 + AAC. webm: VP9 + Opus. mov: ProRes
            4444 + AAC. gif: animated GIF (one palette for the movie, no sound). mp3, wav: the sound alone, no frames
            rendered. png, jpeg, webp: one frame, at `time`. mov and webm keep transparency when every scene's background is
            "transparent". Default: 'mp4'.
        time (float | Unset): Seconds into the movie of the frame a still format (png, jpeg, webp) shows; before the
            movie's end. Only with a still format.
        poster_time (float | Unset): Seconds into the movie of a video render's poster frame; before the movie's end.
            Only with a video format (mp4, webm, mov, gif).
    """

    format_: (
        Literal["gif"]
        | Literal["jpeg"]
        | Literal["mov"]
        | Literal["mp3"]
        | Literal["mp4"]
        | Literal["png"]
        | Literal["wav"]
        | Literal["webm"]
        | Literal["webp"]
        | Unset
    ) = "mp4"
    time: float | Unset = UNSET
    poster_time: float | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        format_: (
            Literal["gif"]
            | Literal["jpeg"]
            | Literal["mov"]
            | Literal["mp3"]
            | Literal["mp4"]
            | Literal["png"]
            | Literal["wav"]
            | Literal["webm"]
            | Literal["webp"]
            | Unset
        )
        if isinstance(self.format_, Unset):
            format_ = UNSET
        else:
            format_ = self.format_

        time = self.time

        poster_time = self.poster_time

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if format_ is not UNSET:
            field_dict["format"] = format_
        if time is not UNSET:
            field_dict["time"] = time
        if poster_time is not UNSET:
            field_dict["posterTime"] = poster_time

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)

        def _parse_format_(
            data: object,
        ) -> (
            Literal["gif"]
            | Literal["jpeg"]
            | Literal["mov"]
            | Literal["mp3"]
            | Literal["mp4"]
            | Literal["png"]
            | Literal["wav"]
            | Literal["webm"]
            | Literal["webp"]
            | Unset
        ):
            if isinstance(data, Unset):
                return data
            try:
                if not data == "mp4":
                    raise TypeError()
                format_type_0 = cast(Literal["mp4"], data)
                if format_type_0 != "mp4":
                    raise ValueError(f"format_type_0 must match const 'mp4', got '{format_type_0}'")
                return format_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "webm":
                    raise TypeError()
                format_type_1 = cast(Literal["webm"], data)
                if format_type_1 != "webm":
                    raise ValueError(f"format_type_1 must match const 'webm', got '{format_type_1}'")
                return format_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "mov":
                    raise TypeError()
                format_type_2 = cast(Literal["mov"], data)
                if format_type_2 != "mov":
                    raise ValueError(f"format_type_2 must match const 'mov', got '{format_type_2}'")
                return format_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "gif":
                    raise TypeError()
                format_type_3 = cast(Literal["gif"], data)
                if format_type_3 != "gif":
                    raise ValueError(f"format_type_3 must match const 'gif', got '{format_type_3}'")
                return format_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "mp3":
                    raise TypeError()
                format_type_4 = cast(Literal["mp3"], data)
                if format_type_4 != "mp3":
                    raise ValueError(f"format_type_4 must match const 'mp3', got '{format_type_4}'")
                return format_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "wav":
                    raise TypeError()
                format_type_5 = cast(Literal["wav"], data)
                if format_type_5 != "wav":
                    raise ValueError(f"format_type_5 must match const 'wav', got '{format_type_5}'")
                return format_type_5
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "png":
                    raise TypeError()
                format_type_6 = cast(Literal["png"], data)
                if format_type_6 != "png":
                    raise ValueError(f"format_type_6 must match const 'png', got '{format_type_6}'")
                return format_type_6
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "jpeg":
                    raise TypeError()
                format_type_7 = cast(Literal["jpeg"], data)
                if format_type_7 != "jpeg":
                    raise ValueError(f"format_type_7 must match const 'jpeg', got '{format_type_7}'")
                return format_type_7
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not data == "webp":
                raise TypeError()
            format_type_8 = cast(Literal["webp"], data)
            if format_type_8 != "webp":
                raise ValueError(f"format_type_8 must match const 'webp', got '{format_type_8}'")
            return format_type_8

        format_ = _parse_format_(_fields.pop("format", UNSET))

        time = _fields.pop("time", UNSET)

        poster_time = _fields.pop("posterTime", UNSET)

        framewright_movie_document_v1_output = cls(
            format_=format_,
            time=time,
            poster_time=poster_time,
        )

        return framewright_movie_document_v1_output
