from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_0_animate import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType0Animate,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_0_animation import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType0Animation,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_0_auto_fit import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType0AutoFit,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_0_background import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType0Background,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_0_position_type_1 import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType0PositionType1,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_0_shadow import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType0Shadow,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_0_stroke import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType0Stroke,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_0_text_animation import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType0TextAnimation,
    )


T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType0")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType0:
    """A block of text.

    Attributes:
        id (str): Element id, unique across the document.
        type_ (Literal['text']):
        text (str): The text; "\\n" breaks a line, long lines wrap at maxWidth.
        font (Literal['Inter'] | Literal['Lato'] | Literal['Merriweather'] | Literal['Montserrat'] | Literal['Noto
            Sans'] | Literal['Open Sans'] | Literal['Oswald'] | Literal['Playfair Display'] | Literal['Roboto'] |
            Literal['Source Code Pro'] | str | Unset): A bundled family (see the catalogue) or an absolute http(s) or base64
            data: URL of a TTF/OTF/WOFF/WOFF2 file. Default: 'Inter'.
        font_size (float | Unset): Font size in output pixels. Default: 64.0.
        font_weight (int | Unset): CSS font weight. Default: 400.
        color (str | Unset): Text colour. Default: '#ffffff'.
        align (Literal['center'] | Literal['left'] | Literal['right'] | Unset): Alignment of lines in the block.
            Default: 'center'.
        max_width (int | Unset): Width in output pixels at which lines wrap. Default: 90% of the frame width.
        line_height (float | Unset): Line height as a multiple of fontSize. Default: 1.2.
        position (FramewrightMovieDocumentV1ScenesItemElementsItemType0PositionType1 | Literal['center'] | Unset):
            "center" (default) centres the text block; {x, y} is its top-left. Default: 'center'.
        start (float | Unset): Seconds from the scene start at which the element appears. Must be before the scene ends.
            Default: 0.0.
        duration (float | Unset): Seconds the element stays visible. Default: until the scene ends. Must end within the
            scene.
        animation (FramewrightMovieDocumentV1ScenesItemElementsItemType0Animation | Unset): Entry and exit animations of
            the element (presets, expanded to keyframes).
        animate (FramewrightMovieDocumentV1ScenesItemElementsItemType0Animate | Unset): Keyframe tracks, one per
            property: values between keys follow each key's easing.
        text_animation (FramewrightMovieDocumentV1ScenesItemElementsItemType0TextAnimation | Unset): Reveals the text
            word by word or letter by letter.
        stroke (FramewrightMovieDocumentV1ScenesItemElementsItemType0Stroke | Unset): An outline around the glyphs,
            centred on their outline and drawn under the fill.
        shadow (FramewrightMovieDocumentV1ScenesItemElementsItemType0Shadow | Unset): A drop shadow of the glyphs (and
            of their stroke), drawn under them; `{}` is the default shadow.
        background (FramewrightMovieDocumentV1ScenesItemElementsItemType0Background | Unset): A box behind the text
            block, under the shadow, stroke and fill.
        letter_spacing (float | Unset): Output pixels added between characters (negative: tighter). Counts when lines
            wrap. Default: 0.0.
        max_height (int | Unset): Height in output pixels the text block may take. Lines past it are cut at the last
            line that fits, which ends with "…" (autoFit shrinks the text first). Default: no limit.
        max_lines (int | Unset): At most this many lines; past it the last line ends with "…" (autoFit shrinks the text
            first). Default: no limit.
        auto_fit (FramewrightMovieDocumentV1ScenesItemElementsItemType0AutoFit | Unset): Shrinks fontSize, down to
            minFontSize, until the text fits maxWidth, maxHeight and maxLines; needs maxHeight or maxLines.
        lang (str | Unset): BCP 47 language tag of the text, e.g. ja, zh-CN, ko, ar. Picks which CJK font draws the Han
            characters Chinese, Japanese and Korean share. Default: guessed from the text (kana: Japanese, hangul: Korean,
            otherwise Simplified Chinese).
    """

    id: str
    type_: Literal["text"]
    text: str
    font: (
        Literal["Inter"]
        | Literal["Lato"]
        | Literal["Merriweather"]
        | Literal["Montserrat"]
        | Literal["Noto Sans"]
        | Literal["Open Sans"]
        | Literal["Oswald"]
        | Literal["Playfair Display"]
        | Literal["Roboto"]
        | Literal["Source Code Pro"]
        | str
        | Unset
    ) = "Inter"
    font_size: float | Unset = 64.0
    font_weight: int | Unset = 400
    color: str | Unset = "#ffffff"
    align: Literal["center"] | Literal["left"] | Literal["right"] | Unset = "center"
    max_width: int | Unset = UNSET
    line_height: float | Unset = 1.2
    position: FramewrightMovieDocumentV1ScenesItemElementsItemType0PositionType1 | Literal["center"] | Unset = "center"
    start: float | Unset = 0.0
    duration: float | Unset = UNSET
    animation: FramewrightMovieDocumentV1ScenesItemElementsItemType0Animation | Unset = UNSET
    animate: FramewrightMovieDocumentV1ScenesItemElementsItemType0Animate | Unset = UNSET
    text_animation: FramewrightMovieDocumentV1ScenesItemElementsItemType0TextAnimation | Unset = UNSET
    stroke: FramewrightMovieDocumentV1ScenesItemElementsItemType0Stroke | Unset = UNSET
    shadow: FramewrightMovieDocumentV1ScenesItemElementsItemType0Shadow | Unset = UNSET
    background: FramewrightMovieDocumentV1ScenesItemElementsItemType0Background | Unset = UNSET
    letter_spacing: float | Unset = 0.0
    max_height: int | Unset = UNSET
    max_lines: int | Unset = UNSET
    auto_fit: FramewrightMovieDocumentV1ScenesItemElementsItemType0AutoFit | Unset = UNSET
    lang: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_0_position_type_1 import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType0PositionType1,  # noqa: PLC0415
        )

        id = self.id

        type_ = self.type_

        text = self.text

        font: (
            Literal["Inter"]
            | Literal["Lato"]
            | Literal["Merriweather"]
            | Literal["Montserrat"]
            | Literal["Noto Sans"]
            | Literal["Open Sans"]
            | Literal["Oswald"]
            | Literal["Playfair Display"]
            | Literal["Roboto"]
            | Literal["Source Code Pro"]
            | str
            | Unset
        )
        if isinstance(self.font, Unset):
            font = UNSET
        else:
            font = self.font

        font_size = self.font_size

        font_weight = self.font_weight

        color = self.color

        align: Literal["center"] | Literal["left"] | Literal["right"] | Unset
        if isinstance(self.align, Unset):
            align = UNSET
        else:
            align = self.align

        max_width = self.max_width

        line_height = self.line_height

        position: dict[str, Any] | Literal["center"] | Unset
        if isinstance(self.position, Unset):
            position = UNSET
        elif isinstance(self.position, FramewrightMovieDocumentV1ScenesItemElementsItemType0PositionType1):
            position = self.position.to_dict()
        else:
            position = self.position

        start = self.start

        duration = self.duration

        animation: dict[str, Any] | Unset = UNSET
        if not isinstance(self.animation, Unset):
            animation = self.animation.to_dict()

        animate: dict[str, Any] | Unset = UNSET
        if not isinstance(self.animate, Unset):
            animate = self.animate.to_dict()

        text_animation: dict[str, Any] | Unset = UNSET
        if not isinstance(self.text_animation, Unset):
            text_animation = self.text_animation.to_dict()

        stroke: dict[str, Any] | Unset = UNSET
        if not isinstance(self.stroke, Unset):
            stroke = self.stroke.to_dict()

        shadow: dict[str, Any] | Unset = UNSET
        if not isinstance(self.shadow, Unset):
            shadow = self.shadow.to_dict()

        background: dict[str, Any] | Unset = UNSET
        if not isinstance(self.background, Unset):
            background = self.background.to_dict()

        letter_spacing = self.letter_spacing

        max_height = self.max_height

        max_lines = self.max_lines

        auto_fit: dict[str, Any] | Unset = UNSET
        if not isinstance(self.auto_fit, Unset):
            auto_fit = self.auto_fit.to_dict()

        lang = self.lang

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "type": type_,
                "text": text,
            }
        )
        if font is not UNSET:
            field_dict["font"] = font
        if font_size is not UNSET:
            field_dict["fontSize"] = font_size
        if font_weight is not UNSET:
            field_dict["fontWeight"] = font_weight
        if color is not UNSET:
            field_dict["color"] = color
        if align is not UNSET:
            field_dict["align"] = align
        if max_width is not UNSET:
            field_dict["maxWidth"] = max_width
        if line_height is not UNSET:
            field_dict["lineHeight"] = line_height
        if position is not UNSET:
            field_dict["position"] = position
        if start is not UNSET:
            field_dict["start"] = start
        if duration is not UNSET:
            field_dict["duration"] = duration
        if animation is not UNSET:
            field_dict["animation"] = animation
        if animate is not UNSET:
            field_dict["animate"] = animate
        if text_animation is not UNSET:
            field_dict["textAnimation"] = text_animation
        if stroke is not UNSET:
            field_dict["stroke"] = stroke
        if shadow is not UNSET:
            field_dict["shadow"] = shadow
        if background is not UNSET:
            field_dict["background"] = background
        if letter_spacing is not UNSET:
            field_dict["letterSpacing"] = letter_spacing
        if max_height is not UNSET:
            field_dict["maxHeight"] = max_height
        if max_lines is not UNSET:
            field_dict["maxLines"] = max_lines
        if auto_fit is not UNSET:
            field_dict["autoFit"] = auto_fit
        if lang is not UNSET:
            field_dict["lang"] = lang

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_0_animate import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType0Animate,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_0_animation import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType0Animation,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_0_auto_fit import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType0AutoFit,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_0_background import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType0Background,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_0_position_type_1 import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType0PositionType1,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_0_shadow import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType0Shadow,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_0_stroke import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType0Stroke,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_0_text_animation import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType0TextAnimation,  # noqa: PLC0415
        )

        _fields = dict(src_dict)
        id = _fields.pop("id")

        type_ = cast(Literal["text"], _fields.pop("type"))
        if type_ != "text":
            raise ValueError(f"type must match const 'text', got '{type_}'")

        text = _fields.pop("text")

        def _parse_font(
            data: object,
        ) -> (
            Literal["Inter"]
            | Literal["Lato"]
            | Literal["Merriweather"]
            | Literal["Montserrat"]
            | Literal["Noto Sans"]
            | Literal["Open Sans"]
            | Literal["Oswald"]
            | Literal["Playfair Display"]
            | Literal["Roboto"]
            | Literal["Source Code Pro"]
            | str
            | Unset
        ):
            if isinstance(data, Unset):
                return data
            try:
                if not data == "Inter":
                    raise TypeError()
                font_type_0_type_0 = cast(Literal["Inter"], data)
                if font_type_0_type_0 != "Inter":
                    raise ValueError(f"font_type_0_type_0 must match const 'Inter', got '{font_type_0_type_0}'")
                return font_type_0_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "Roboto":
                    raise TypeError()
                font_type_0_type_1 = cast(Literal["Roboto"], data)
                if font_type_0_type_1 != "Roboto":
                    raise ValueError(f"font_type_0_type_1 must match const 'Roboto', got '{font_type_0_type_1}'")
                return font_type_0_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "Open Sans":
                    raise TypeError()
                font_type_0_type_2 = cast(Literal["Open Sans"], data)
                if font_type_0_type_2 != "Open Sans":
                    raise ValueError(f"font_type_0_type_2 must match const 'Open Sans', got '{font_type_0_type_2}'")
                return font_type_0_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "Lato":
                    raise TypeError()
                font_type_0_type_3 = cast(Literal["Lato"], data)
                if font_type_0_type_3 != "Lato":
                    raise ValueError(f"font_type_0_type_3 must match const 'Lato', got '{font_type_0_type_3}'")
                return font_type_0_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "Montserrat":
                    raise TypeError()
                font_type_0_type_4 = cast(Literal["Montserrat"], data)
                if font_type_0_type_4 != "Montserrat":
                    raise ValueError(f"font_type_0_type_4 must match const 'Montserrat', got '{font_type_0_type_4}'")
                return font_type_0_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "Merriweather":
                    raise TypeError()
                font_type_0_type_5 = cast(Literal["Merriweather"], data)
                if font_type_0_type_5 != "Merriweather":
                    raise ValueError(f"font_type_0_type_5 must match const 'Merriweather', got '{font_type_0_type_5}'")
                return font_type_0_type_5
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "Playfair Display":
                    raise TypeError()
                font_type_0_type_6 = cast(Literal["Playfair Display"], data)
                if font_type_0_type_6 != "Playfair Display":
                    raise ValueError(
                        f"font_type_0_type_6 must match const 'Playfair Display', got '{font_type_0_type_6}'"
                    )
                return font_type_0_type_6
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "Oswald":
                    raise TypeError()
                font_type_0_type_7 = cast(Literal["Oswald"], data)
                if font_type_0_type_7 != "Oswald":
                    raise ValueError(f"font_type_0_type_7 must match const 'Oswald', got '{font_type_0_type_7}'")
                return font_type_0_type_7
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "Source Code Pro":
                    raise TypeError()
                font_type_0_type_8 = cast(Literal["Source Code Pro"], data)
                if font_type_0_type_8 != "Source Code Pro":
                    raise ValueError(
                        f"font_type_0_type_8 must match const 'Source Code Pro', got '{font_type_0_type_8}'"
                    )
                return font_type_0_type_8
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "Noto Sans":
                    raise TypeError()
                font_type_0_type_9 = cast(Literal["Noto Sans"], data)
                if font_type_0_type_9 != "Noto Sans":
                    raise ValueError(f"font_type_0_type_9 must match const 'Noto Sans', got '{font_type_0_type_9}'")
                return font_type_0_type_9
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                Literal["Inter"]
                | Literal["Lato"]
                | Literal["Merriweather"]
                | Literal["Montserrat"]
                | Literal["Noto Sans"]
                | Literal["Open Sans"]
                | Literal["Oswald"]
                | Literal["Playfair Display"]
                | Literal["Roboto"]
                | Literal["Source Code Pro"]
                | str
                | Unset,
                data,
            )

        font = _parse_font(_fields.pop("font", UNSET))

        font_size = _fields.pop("fontSize", UNSET)

        font_weight = _fields.pop("fontWeight", UNSET)

        color = _fields.pop("color", UNSET)

        def _parse_align(data: object) -> Literal["center"] | Literal["left"] | Literal["right"] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not data == "left":
                    raise TypeError()
                align_type_0 = cast(Literal["left"], data)
                if align_type_0 != "left":
                    raise ValueError(f"align_type_0 must match const 'left', got '{align_type_0}'")
                return align_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "center":
                    raise TypeError()
                align_type_1 = cast(Literal["center"], data)
                if align_type_1 != "center":
                    raise ValueError(f"align_type_1 must match const 'center', got '{align_type_1}'")
                return align_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not data == "right":
                raise TypeError()
            align_type_2 = cast(Literal["right"], data)
            if align_type_2 != "right":
                raise ValueError(f"align_type_2 must match const 'right', got '{align_type_2}'")
            return align_type_2

        align = _parse_align(_fields.pop("align", UNSET))

        max_width = _fields.pop("maxWidth", UNSET)

        line_height = _fields.pop("lineHeight", UNSET)

        def _parse_position(
            data: object,
        ) -> FramewrightMovieDocumentV1ScenesItemElementsItemType0PositionType1 | Literal["center"] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not data == "center":
                    raise TypeError()
                position_type_0 = cast(Literal["center"], data)
                if position_type_0 != "center":
                    raise ValueError(f"position_type_0 must match const 'center', got '{position_type_0}'")
                return position_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            position_type_1 = FramewrightMovieDocumentV1ScenesItemElementsItemType0PositionType1.from_dict(data)

            return position_type_1

        position = _parse_position(_fields.pop("position", UNSET))

        start = _fields.pop("start", UNSET)

        duration = _fields.pop("duration", UNSET)

        _animation = _fields.pop("animation", UNSET)
        animation: FramewrightMovieDocumentV1ScenesItemElementsItemType0Animation | Unset
        if isinstance(_animation, Unset):
            animation = UNSET
        else:
            animation = FramewrightMovieDocumentV1ScenesItemElementsItemType0Animation.from_dict(_animation)

        _animate = _fields.pop("animate", UNSET)
        animate: FramewrightMovieDocumentV1ScenesItemElementsItemType0Animate | Unset
        if isinstance(_animate, Unset):
            animate = UNSET
        else:
            animate = FramewrightMovieDocumentV1ScenesItemElementsItemType0Animate.from_dict(_animate)

        _text_animation = _fields.pop("textAnimation", UNSET)
        text_animation: FramewrightMovieDocumentV1ScenesItemElementsItemType0TextAnimation | Unset
        if isinstance(_text_animation, Unset):
            text_animation = UNSET
        else:
            text_animation = FramewrightMovieDocumentV1ScenesItemElementsItemType0TextAnimation.from_dict(
                _text_animation
            )

        _stroke = _fields.pop("stroke", UNSET)
        stroke: FramewrightMovieDocumentV1ScenesItemElementsItemType0Stroke | Unset
        if isinstance(_stroke, Unset):
            stroke = UNSET
        else:
            stroke = FramewrightMovieDocumentV1ScenesItemElementsItemType0Stroke.from_dict(_stroke)

        _shadow = _fields.pop("shadow", UNSET)
        shadow: FramewrightMovieDocumentV1ScenesItemElementsItemType0Shadow | Unset
        if isinstance(_shadow, Unset):
            shadow = UNSET
        else:
            shadow = FramewrightMovieDocumentV1ScenesItemElementsItemType0Shadow.from_dict(_shadow)

        _background = _fields.pop("background", UNSET)
        background: FramewrightMovieDocumentV1ScenesItemElementsItemType0Background | Unset
        if isinstance(_background, Unset):
            background = UNSET
        else:
            background = FramewrightMovieDocumentV1ScenesItemElementsItemType0Background.from_dict(_background)

        letter_spacing = _fields.pop("letterSpacing", UNSET)

        max_height = _fields.pop("maxHeight", UNSET)

        max_lines = _fields.pop("maxLines", UNSET)

        _auto_fit = _fields.pop("autoFit", UNSET)
        auto_fit: FramewrightMovieDocumentV1ScenesItemElementsItemType0AutoFit | Unset
        if isinstance(_auto_fit, Unset):
            auto_fit = UNSET
        else:
            auto_fit = FramewrightMovieDocumentV1ScenesItemElementsItemType0AutoFit.from_dict(_auto_fit)

        lang = _fields.pop("lang", UNSET)

        framewright_movie_document_v1_scenes_item_elements_item_type_0 = cls(
            id=id,
            type_=type_,
            text=text,
            font=font,
            font_size=font_size,
            font_weight=font_weight,
            color=color,
            align=align,
            max_width=max_width,
            line_height=line_height,
            position=position,
            start=start,
            duration=duration,
            animation=animation,
            animate=animate,
            text_animation=text_animation,
            stroke=stroke,
            shadow=shadow,
            background=background,
            letter_spacing=letter_spacing,
            max_height=max_height,
            max_lines=max_lines,
            auto_fit=auto_fit,
            lang=lang,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_0
