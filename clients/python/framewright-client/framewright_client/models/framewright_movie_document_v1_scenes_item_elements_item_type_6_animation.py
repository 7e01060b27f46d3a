from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType6Animation")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType6Animation:
    """Entrance or exit animation of the element.

    Attributes:
        preset (Literal['fade-in'] | Literal['fade-out'] | Literal['slide-in-down'] | Literal['slide-in-left'] |
            Literal['slide-in-right'] | Literal['slide-in-up'] | Literal['zoom-in'] | Literal['zoom-out']): Entrance (*-in)
            or exit (*-out) animation.
        duration (float | Unset): Seconds the animation lasts. Default: 0.6.
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
    )
    duration: float | Unset = 0.6

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
        )
        preset = self.preset

        duration = self.duration

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "preset": preset,
            }
        )
        if duration is not UNSET:
            field_dict["duration"] = duration

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

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
        ):
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

        preset = _parse_preset(d.pop("preset"))

        duration = d.pop("duration", UNSET)

        framewright_movie_document_v1_scenes_item_elements_item_type_6_animation = cls(
            preset=preset,
            duration=duration,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_6_animation
