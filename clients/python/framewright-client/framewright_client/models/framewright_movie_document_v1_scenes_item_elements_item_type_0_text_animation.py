from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType0TextAnimation")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType0TextAnimation:
    """Reveals the text word by word or letter by letter.

    Attributes:
        unit (Literal['letter'] | Literal['word']): What appears one after another: words, or letters (grapheme
            clusters).
        style (Literal['fade'] | Literal['rise'] | Literal['typewriter']): fade in; rise: fade in while moving up half a
            line; typewriter: appear at once.
        stagger (float): Seconds between one unit starting and the next. Default: 0.05.
        duration (float | Unset): Seconds each unit takes to appear. Default: 0.3.
        start (float | Unset): Seconds after the element's start. Default: 0.0.
        easing (str | Unset): Each unit's curve (linear, ease, ease-in, ease-out, ease-in-out, cubic-bezier(x1, y1, x2,
            y2) with x1 and x2 in [0, 1], steps(n[, jump-start|jump-end]), spring(mass, stiffness, damping)). Default:
            'ease-out'.
    """

    unit: Literal["letter"] | Literal["word"]
    style: Literal["fade"] | Literal["rise"] | Literal["typewriter"]
    stagger: float = 0.05
    duration: float | Unset = 0.3
    start: float | Unset = 0.0
    easing: str | Unset = "ease-out"

    def to_dict(self) -> dict[str, Any]:
        unit: Literal["letter"] | Literal["word"]
        unit = self.unit

        style: Literal["fade"] | Literal["rise"] | Literal["typewriter"]
        style = self.style

        stagger = self.stagger

        duration = self.duration

        start = self.start

        easing = self.easing

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "unit": unit,
                "style": style,
                "stagger": stagger,
            }
        )
        if duration is not UNSET:
            field_dict["duration"] = duration
        if start is not UNSET:
            field_dict["start"] = start
        if easing is not UNSET:
            field_dict["easing"] = easing

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)

        def _parse_unit(data: object) -> Literal["letter"] | Literal["word"]:
            try:
                if not data == "word":
                    raise TypeError()
                unit_type_0 = cast(Literal["word"], data)
                if unit_type_0 != "word":
                    raise ValueError(f"unit_type_0 must match const 'word', got '{unit_type_0}'")
                return unit_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not data == "letter":
                raise TypeError()
            unit_type_1 = cast(Literal["letter"], data)
            if unit_type_1 != "letter":
                raise ValueError(f"unit_type_1 must match const 'letter', got '{unit_type_1}'")
            return unit_type_1

        unit = _parse_unit(_fields.pop("unit"))

        def _parse_style(data: object) -> Literal["fade"] | Literal["rise"] | Literal["typewriter"]:
            try:
                if not data == "fade":
                    raise TypeError()
                style_type_0 = cast(Literal["fade"], data)
                if style_type_0 != "fade":
                    raise ValueError(f"style_type_0 must match const 'fade', got '{style_type_0}'")
                return style_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "rise":
                    raise TypeError()
                style_type_1 = cast(Literal["rise"], data)
                if style_type_1 != "rise":
                    raise ValueError(f"style_type_1 must match const 'rise', got '{style_type_1}'")
                return style_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not data == "typewriter":
                raise TypeError()
            style_type_2 = cast(Literal["typewriter"], data)
            if style_type_2 != "typewriter":
                raise ValueError(f"style_type_2 must match const 'typewriter', got '{style_type_2}'")
            return style_type_2

        style = _parse_style(_fields.pop("style"))

        stagger = _fields.pop("stagger")

        duration = _fields.pop("duration", UNSET)

        start = _fields.pop("start", UNSET)

        easing = _fields.pop("easing", UNSET)

        framewright_movie_document_v1_scenes_item_elements_item_type_0_text_animation = cls(
            unit=unit,
            style=style,
            stagger=stagger,
            duration=duration,
            start=start,
            easing=easing,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_0_text_animation
