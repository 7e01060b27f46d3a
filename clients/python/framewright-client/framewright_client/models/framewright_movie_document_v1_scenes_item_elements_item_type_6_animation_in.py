from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimationIn")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType6AnimationIn:
    """Entry: plays from the element's start.

    Attributes:
        preset (Literal['fade'] | Literal['slide-down'] | Literal['slide-left'] | Literal['slide-right'] |
            Literal['slide-up'] | Literal['zoom']): The effect; slides are named by the way the element moves.
        duration (float | Unset): Seconds. Default: 0.6.
        easing (str | Unset): The curve (linear, ease, ease-in, ease-out, ease-in-out, cubic-bezier(x1, y1, x2, y2) with
            x1 and x2 in [0, 1], steps(n[, jump-start|jump-end]), spring(mass, stiffness, damping)). Default: 'ease-out
            (cubic)'.
    """

    preset: (
        Literal["fade"]
        | Literal["slide-down"]
        | Literal["slide-left"]
        | Literal["slide-right"]
        | Literal["slide-up"]
        | Literal["zoom"]
    )
    duration: float | Unset = 0.6
    easing: str | Unset = "ease-out (cubic)"

    def to_dict(self) -> dict[str, Any]:
        preset: (
            Literal["fade"]
            | Literal["slide-down"]
            | Literal["slide-left"]
            | Literal["slide-right"]
            | Literal["slide-up"]
            | Literal["zoom"]
        )
        preset = self.preset

        duration = self.duration

        easing = self.easing

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "preset": preset,
            }
        )
        if duration is not UNSET:
            field_dict["duration"] = duration
        if easing is not UNSET:
            field_dict["easing"] = easing

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)

        def _parse_preset(
            data: object,
        ) -> (
            Literal["fade"]
            | Literal["slide-down"]
            | Literal["slide-left"]
            | Literal["slide-right"]
            | Literal["slide-up"]
            | Literal["zoom"]
        ):
            try:
                if not data == "fade":
                    raise TypeError()
                preset_type_0 = cast(Literal["fade"], data)
                if preset_type_0 != "fade":
                    raise ValueError(f"preset_type_0 must match const 'fade', got '{preset_type_0}'")
                return preset_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "zoom":
                    raise TypeError()
                preset_type_1 = cast(Literal["zoom"], data)
                if preset_type_1 != "zoom":
                    raise ValueError(f"preset_type_1 must match const 'zoom', got '{preset_type_1}'")
                return preset_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "slide-up":
                    raise TypeError()
                preset_type_2 = cast(Literal["slide-up"], data)
                if preset_type_2 != "slide-up":
                    raise ValueError(f"preset_type_2 must match const 'slide-up', got '{preset_type_2}'")
                return preset_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "slide-down":
                    raise TypeError()
                preset_type_3 = cast(Literal["slide-down"], data)
                if preset_type_3 != "slide-down":
                    raise ValueError(f"preset_type_3 must match const 'slide-down', got '{preset_type_3}'")
                return preset_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "slide-left":
                    raise TypeError()
                preset_type_4 = cast(Literal["slide-left"], data)
                if preset_type_4 != "slide-left":
                    raise ValueError(f"preset_type_4 must match const 'slide-left', got '{preset_type_4}'")
                return preset_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not data == "slide-right":
                raise TypeError()
            preset_type_5 = cast(Literal["slide-right"], data)
            if preset_type_5 != "slide-right":
                raise ValueError(f"preset_type_5 must match const 'slide-right', got '{preset_type_5}'")
            return preset_type_5

        preset = _parse_preset(_fields.pop("preset"))

        duration = _fields.pop("duration", UNSET)

        easing = _fields.pop("easing", UNSET)

        framewright_movie_document_v1_scenes_item_elements_item_type_6_animation_in = cls(
            preset=preset,
            duration=duration,
            easing=easing,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_6_animation_in
