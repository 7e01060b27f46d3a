from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemTransition")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemTransition:
    """How this scene replaces the previous one. The two scenes overlap by the duration.

    Attributes:
        type_ (Literal['crossfade'] | Literal['slide-down'] | Literal['slide-left'] | Literal['slide-right'] |
            Literal['slide-up'] | Literal['wipe-down'] | Literal['wipe-left'] | Literal['wipe-right'] | Literal['wipe-up']):
            crossfade blends the scenes; slide-* pushes the previous scene out in that direction; wipe-* moves an edge in
            that direction, revealing this scene.
        duration (float | Unset): Seconds the transition lasts; this scene starts that much before the previous one
            ends. Default: 0.5.
    """

    type_: (
        Literal["crossfade"]
        | Literal["slide-down"]
        | Literal["slide-left"]
        | Literal["slide-right"]
        | Literal["slide-up"]
        | Literal["wipe-down"]
        | Literal["wipe-left"]
        | Literal["wipe-right"]
        | Literal["wipe-up"]
    )
    duration: float | Unset = 0.5

    def to_dict(self) -> dict[str, Any]:
        type_: (
            Literal["crossfade"]
            | Literal["slide-down"]
            | Literal["slide-left"]
            | Literal["slide-right"]
            | Literal["slide-up"]
            | Literal["wipe-down"]
            | Literal["wipe-left"]
            | Literal["wipe-right"]
            | Literal["wipe-up"]
        )
        type_ = self.type_

        duration = self.duration

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
            }
        )
        if duration is not UNSET:
            field_dict["duration"] = duration

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)

        def _parse_type_(
            data: object,
        ) -> (
            Literal["crossfade"]
            | Literal["slide-down"]
            | Literal["slide-left"]
            | Literal["slide-right"]
            | Literal["slide-up"]
            | Literal["wipe-down"]
            | Literal["wipe-left"]
            | Literal["wipe-right"]
            | Literal["wipe-up"]
        ):
            try:
                if not data == "crossfade":
                    raise TypeError()
                type_type_0 = cast(Literal["crossfade"], data)
                if type_type_0 != "crossfade":
                    raise ValueError(f"type_type_0 must match const 'crossfade', got '{type_type_0}'")
                return type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "slide-left":
                    raise TypeError()
                type_type_1 = cast(Literal["slide-left"], data)
                if type_type_1 != "slide-left":
                    raise ValueError(f"type_type_1 must match const 'slide-left', got '{type_type_1}'")
                return type_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "slide-right":
                    raise TypeError()
                type_type_2 = cast(Literal["slide-right"], data)
                if type_type_2 != "slide-right":
                    raise ValueError(f"type_type_2 must match const 'slide-right', got '{type_type_2}'")
                return type_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "slide-up":
                    raise TypeError()
                type_type_3 = cast(Literal["slide-up"], data)
                if type_type_3 != "slide-up":
                    raise ValueError(f"type_type_3 must match const 'slide-up', got '{type_type_3}'")
                return type_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "slide-down":
                    raise TypeError()
                type_type_4 = cast(Literal["slide-down"], data)
                if type_type_4 != "slide-down":
                    raise ValueError(f"type_type_4 must match const 'slide-down', got '{type_type_4}'")
                return type_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "wipe-left":
                    raise TypeError()
                type_type_5 = cast(Literal["wipe-left"], data)
                if type_type_5 != "wipe-left":
                    raise ValueError(f"type_type_5 must match const 'wipe-left', got '{type_type_5}'")
                return type_type_5
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "wipe-right":
                    raise TypeError()
                type_type_6 = cast(Literal["wipe-right"], data)
                if type_type_6 != "wipe-right":
                    raise ValueError(f"type_type_6 must match const 'wipe-right', got '{type_type_6}'")
                return type_type_6
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "wipe-up":
                    raise TypeError()
                type_type_7 = cast(Literal["wipe-up"], data)
                if type_type_7 != "wipe-up":
                    raise ValueError(f"type_type_7 must match const 'wipe-up', got '{type_type_7}'")
                return type_type_7
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not data == "wipe-down":
                raise TypeError()
            type_type_8 = cast(Literal["wipe-down"], data)
            if type_type_8 != "wipe-down":
                raise ValueError(f"type_type_8 must match const 'wipe-down', got '{type_type_8}'")
            return type_type_8

        type_ = _parse_type_(_fields.pop("type"))

        duration = _fields.pop("duration", UNSET)

        framewright_movie_document_v1_scenes_item_transition = cls(
            type_=type_,
            duration=duration,
        )

        return framewright_movie_document_v1_scenes_item_transition
