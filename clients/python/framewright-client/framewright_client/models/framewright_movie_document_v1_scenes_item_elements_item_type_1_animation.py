from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_1_animation_in import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimationIn,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_1_animation_out import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimationOut,
    )


T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType1Animation")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType1Animation:
    """Entry and exit animations of the element (presets, expanded to keyframes).

    Attributes:
        preset (Literal['fade-in'] | Literal['fade-out'] | Literal['slide-in-down'] | Literal['slide-in-left'] |
            Literal['slide-in-right'] | Literal['slide-in-up'] | Literal['zoom-in'] | Literal['zoom-out'] | Unset): Single
            entrance (*-in) or exit (*-out) preset. Give either preset or in/out.
        duration (float | Unset): Seconds the preset lasts. Default: 0.6.
        in_ (FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimationIn | Unset): Entry: plays from the element's
            start.
        out (FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimationOut | Unset): Exit: ends at the element's
            end.
    """

    preset: (
        Literal["fade-in"]
        | Literal["fade-out"]
        | Literal["slide-in-down"]
        | Literal["slide-in-left"]
        | Literal["slide-in-right"]
        | Literal["slide-in-up"]
        | Literal["zoom-in"]
        | Literal["zoom-out"]
        | Unset
    ) = UNSET
    duration: float | Unset = 0.6
    in_: FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimationIn | Unset = UNSET
    out: FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimationOut | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        preset: (
            Literal["fade-in"]
            | Literal["fade-out"]
            | Literal["slide-in-down"]
            | Literal["slide-in-left"]
            | Literal["slide-in-right"]
            | Literal["slide-in-up"]
            | Literal["zoom-in"]
            | Literal["zoom-out"]
            | Unset
        )
        if isinstance(self.preset, Unset):
            preset = UNSET
        else:
            preset = self.preset

        duration = self.duration

        in_: dict[str, Any] | Unset = UNSET
        if not isinstance(self.in_, Unset):
            in_ = self.in_.to_dict()

        out: dict[str, Any] | Unset = UNSET
        if not isinstance(self.out, Unset):
            out = self.out.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if preset is not UNSET:
            field_dict["preset"] = preset
        if duration is not UNSET:
            field_dict["duration"] = duration
        if in_ is not UNSET:
            field_dict["in"] = in_
        if out is not UNSET:
            field_dict["out"] = out

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_1_animation_in import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimationIn,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_1_animation_out import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimationOut,  # noqa: PLC0415
        )

        _fields = dict(src_dict)

        def _parse_preset(
            data: object,
        ) -> (
            Literal["fade-in"]
            | Literal["fade-out"]
            | Literal["slide-in-down"]
            | Literal["slide-in-left"]
            | Literal["slide-in-right"]
            | Literal["slide-in-up"]
            | Literal["zoom-in"]
            | Literal["zoom-out"]
            | Unset
        ):
            if isinstance(data, Unset):
                return data
            try:
                if not data == "fade-in":
                    raise TypeError()
                preset_type_0 = cast(Literal["fade-in"], data)
                if preset_type_0 != "fade-in":
                    raise ValueError(f"preset_type_0 must match const 'fade-in', got '{preset_type_0}'")
                return preset_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "fade-out":
                    raise TypeError()
                preset_type_1 = cast(Literal["fade-out"], data)
                if preset_type_1 != "fade-out":
                    raise ValueError(f"preset_type_1 must match const 'fade-out', got '{preset_type_1}'")
                return preset_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "zoom-in":
                    raise TypeError()
                preset_type_2 = cast(Literal["zoom-in"], data)
                if preset_type_2 != "zoom-in":
                    raise ValueError(f"preset_type_2 must match const 'zoom-in', got '{preset_type_2}'")
                return preset_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "zoom-out":
                    raise TypeError()
                preset_type_3 = cast(Literal["zoom-out"], data)
                if preset_type_3 != "zoom-out":
                    raise ValueError(f"preset_type_3 must match const 'zoom-out', got '{preset_type_3}'")
                return preset_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "slide-in-up":
                    raise TypeError()
                preset_type_4 = cast(Literal["slide-in-up"], data)
                if preset_type_4 != "slide-in-up":
                    raise ValueError(f"preset_type_4 must match const 'slide-in-up', got '{preset_type_4}'")
                return preset_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "slide-in-down":
                    raise TypeError()
                preset_type_5 = cast(Literal["slide-in-down"], data)
                if preset_type_5 != "slide-in-down":
                    raise ValueError(f"preset_type_5 must match const 'slide-in-down', got '{preset_type_5}'")
                return preset_type_5
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "slide-in-left":
                    raise TypeError()
                preset_type_6 = cast(Literal["slide-in-left"], data)
                if preset_type_6 != "slide-in-left":
                    raise ValueError(f"preset_type_6 must match const 'slide-in-left', got '{preset_type_6}'")
                return preset_type_6
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not data == "slide-in-right":
                raise TypeError()
            preset_type_7 = cast(Literal["slide-in-right"], data)
            if preset_type_7 != "slide-in-right":
                raise ValueError(f"preset_type_7 must match const 'slide-in-right', got '{preset_type_7}'")
            return preset_type_7

        preset = _parse_preset(_fields.pop("preset", UNSET))

        duration = _fields.pop("duration", UNSET)

        _in_ = _fields.pop("in", UNSET)
        in_: FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimationIn | Unset
        if isinstance(_in_, Unset):
            in_ = UNSET
        else:
            in_ = FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimationIn.from_dict(_in_)

        _out = _fields.pop("out", UNSET)
        out: FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimationOut | Unset
        if isinstance(_out, Unset):
            out = UNSET
        else:
            out = FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimationOut.from_dict(_out)

        framewright_movie_document_v1_scenes_item_elements_item_type_1_animation = cls(
            preset=preset,
            duration=duration,
            in_=in_,
            out=out,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_1_animation
