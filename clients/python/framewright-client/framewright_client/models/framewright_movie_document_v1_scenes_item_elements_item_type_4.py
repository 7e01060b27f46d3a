from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_4_background import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType4Background,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_4_position_type_1 import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType4PositionType1,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_4_shadow import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType4Shadow,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_4_stroke import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType4Stroke,
    )


T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType4")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType4:
    """Captions: word-timed from the scene's voice elements (the scene then needs at least one), transcribed from an audio
    or video element (from), or the cues of an SRT or WebVTT file (src).

        Attributes:
            id (str): Element id, unique across the document.
            type_ (Literal['subtitles']):
            font (Literal['Inter'] | Literal['Lato'] | Literal['Merriweather'] | Literal['Montserrat'] | Literal['Noto
                Sans'] | Literal['Open Sans'] | Literal['Oswald'] | Literal['Playfair Display'] | Literal['Roboto'] |
                Literal['Source Code Pro'] | str | Unset): A bundled family (see the catalogue) or an absolute http(s) or base64
                data: URL of a TTF/OTF/WOFF/WOFF2 file. Default: 'Inter'.
            font_size (float | Unset): Font size in output pixels. Default: 48.0.
            font_weight (int | Unset): CSS font weight. Default: 700.
            color (str | Unset): Colour of the words. Default: '#ffffff'.
            highlight_color (str | Unset): Colour of the word being spoken. Default: '#ffd400'.
            background_color (str | Unset): Colour of a box behind the caption; shorthand for background: {color}, so not
                together with background. Default: no box.
            words_per_line (int | Unset): Words shown at once (one caption); fewer when the next word would not fit maxWidth
                and maxLines. Default: 6.
            position (FramewrightMovieDocumentV1ScenesItemElementsItemType4PositionType1 | Literal['center'] | Unset):
                Default: centred horizontally, 10% of the frame height above the bottom; {x, y} is the top-left.
            start (float | Unset): Seconds from the scene start at which the element appears. Must be before the scene ends.
                Default: 0.0.
            duration (float | Unset): Seconds the element stays visible. Default: until the scene ends. Must end within the
                scene.
            stroke (FramewrightMovieDocumentV1ScenesItemElementsItemType4Stroke | Unset): An outline around the glyphs,
                centred on their outline and drawn under the fill.
            shadow (FramewrightMovieDocumentV1ScenesItemElementsItemType4Shadow | Unset): A drop shadow of the glyphs (and
                of their stroke), drawn under them; `{}` is the default shadow.
            background (FramewrightMovieDocumentV1ScenesItemElementsItemType4Background | Unset): A box behind the text
                block, under the shadow, stroke and fill.
            letter_spacing (float | Unset): Output pixels added between characters (negative: tighter). Counts when lines
                wrap. Default: 0.0.
            line_height (float | Unset): Line height as a multiple of fontSize. Default: 1.3.
            align (Literal['center'] | Literal['left'] | Literal['right'] | Unset): Alignment of lines in the block.
                Default: 'center'.
            max_width (int | Unset): Width in output pixels of a caption's lines: a word that would make a line wider wraps
                to the next line, or starts the next caption. Default: 90% of the frame width.
            max_lines (int | Unset): Lines a caption may take; a word that would need one more starts the next caption, so
                no word is dropped. Default: 1.
            lang (str | Unset): BCP 47 language tag of the text, e.g. ja, zh-CN, ko, ar. Picks which CJK font draws the Han
                characters Chinese, Japanese and Korean share. Default: guessed from the text (kana: Japanese, hangul: Korean,
                otherwise Simplified Chinese).
            style (Literal['boxed'] | Literal['karaoke'] | Literal['lines'] | Literal['pop'] | Unset): How the words are
                shown: karaoke (the caption's words, the one being spoken in highlightColor), pop (only the word being spoken,
                in highlightColor, popping in), boxed (only the word being spoken, in color, on a box: background, or
                highlightColor when none is given) or lines (the caption's words in color, no highlight). With src only lines
                applies (a file has no word times), and is what it shows. Default: 'karaoke'.
            from_ (str | Unset): Captions of what an audio or video element of this scene says (its id), or the movie's
                soundtrack ("soundtrack"). Its sound (as it plays: from trimStart, for its played length) is transcribed with
                word times by an OpenAI-protocol transcription endpoint (the worker's TRANSCRIBE_BASE_URL, else OPENAI_BASE_URL;
                TRANSCRIBE_MODEL, default whisper-1; a self-hosted Whisper server speaking the protocol works), and the words
                are shown as a voice's are. The scene then needs no voice. Not together with src.
            language (str | Unset): ISO 639-1 code of the language spoken in the element named by from (e.g. en, de), given
                to the transcription; detected from the speech when absent. Only with from.
            src (str | Unset): An SRT or WebVTT file to show instead of the voice's words: an absolute http(s) URL (an
                uploaded asset's url, or any public address; at most 2048 characters) or a data: URI. Each cue is shown from its
                start to its end, timed from the element's start (its scene's start plus start), with the fields above (its
                lines as the file writes them, wrapped at maxWidth; no word highlight); markup such as <i> is dropped. A file
                that cannot be parsed fails the render with ASSET_INVALID naming this path and the file's line.
    """

    id: str
    type_: Literal["subtitles"]
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
    font_size: float | Unset = 48.0
    font_weight: int | Unset = 700
    color: str | Unset = "#ffffff"
    highlight_color: str | Unset = "#ffd400"
    background_color: str | Unset = UNSET
    words_per_line: int | Unset = 6
    position: FramewrightMovieDocumentV1ScenesItemElementsItemType4PositionType1 | Literal["center"] | Unset = UNSET
    start: float | Unset = 0.0
    duration: float | Unset = UNSET
    stroke: FramewrightMovieDocumentV1ScenesItemElementsItemType4Stroke | Unset = UNSET
    shadow: FramewrightMovieDocumentV1ScenesItemElementsItemType4Shadow | Unset = UNSET
    background: FramewrightMovieDocumentV1ScenesItemElementsItemType4Background | Unset = UNSET
    letter_spacing: float | Unset = 0.0
    line_height: float | Unset = 1.3
    align: Literal["center"] | Literal["left"] | Literal["right"] | Unset = "center"
    max_width: int | Unset = UNSET
    max_lines: int | Unset = 1
    lang: str | Unset = UNSET
    style: Literal["boxed"] | Literal["karaoke"] | Literal["lines"] | Literal["pop"] | Unset = "karaoke"
    from_: str | Unset = UNSET
    language: str | Unset = UNSET
    src: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_4_position_type_1 import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType4PositionType1,  # noqa: PLC0415
        )

        id = self.id

        type_ = self.type_

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

        highlight_color = self.highlight_color

        background_color = self.background_color

        words_per_line = self.words_per_line

        position: dict[str, Any] | Literal["center"] | Unset
        if isinstance(self.position, Unset):
            position = UNSET
        elif isinstance(self.position, FramewrightMovieDocumentV1ScenesItemElementsItemType4PositionType1):
            position = self.position.to_dict()
        else:
            position = self.position

        start = self.start

        duration = self.duration

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

        line_height = self.line_height

        align: Literal["center"] | Literal["left"] | Literal["right"] | Unset
        if isinstance(self.align, Unset):
            align = UNSET
        else:
            align = self.align

        max_width = self.max_width

        max_lines = self.max_lines

        lang = self.lang

        style: Literal["boxed"] | Literal["karaoke"] | Literal["lines"] | Literal["pop"] | Unset
        if isinstance(self.style, Unset):
            style = UNSET
        else:
            style = self.style

        from_ = self.from_

        language = self.language

        src = self.src

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "type": type_,
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
        if highlight_color is not UNSET:
            field_dict["highlightColor"] = highlight_color
        if background_color is not UNSET:
            field_dict["backgroundColor"] = background_color
        if words_per_line is not UNSET:
            field_dict["wordsPerLine"] = words_per_line
        if position is not UNSET:
            field_dict["position"] = position
        if start is not UNSET:
            field_dict["start"] = start
        if duration is not UNSET:
            field_dict["duration"] = duration
        if stroke is not UNSET:
            field_dict["stroke"] = stroke
        if shadow is not UNSET:
            field_dict["shadow"] = shadow
        if background is not UNSET:
            field_dict["background"] = background
        if letter_spacing is not UNSET:
            field_dict["letterSpacing"] = letter_spacing
        if line_height is not UNSET:
            field_dict["lineHeight"] = line_height
        if align is not UNSET:
            field_dict["align"] = align
        if max_width is not UNSET:
            field_dict["maxWidth"] = max_width
        if max_lines is not UNSET:
            field_dict["maxLines"] = max_lines
        if lang is not UNSET:
            field_dict["lang"] = lang
        if style is not UNSET:
            field_dict["style"] = style
        if from_ is not UNSET:
            field_dict["from"] = from_
        if language is not UNSET:
            field_dict["language"] = language
        if src is not UNSET:
            field_dict["src"] = src

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_4_background import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType4Background,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_4_position_type_1 import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType4PositionType1,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_4_shadow import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType4Shadow,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_4_stroke import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType4Stroke,  # noqa: PLC0415
        )

        _fields = dict(src_dict)
        id = _fields.pop("id")

        type_ = cast(Literal["subtitles"], _fields.pop("type"))
        if type_ != "subtitles":
            raise ValueError(f"type must match const 'subtitles', got '{type_}'")

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

        highlight_color = _fields.pop("highlightColor", UNSET)

        background_color = _fields.pop("backgroundColor", UNSET)

        words_per_line = _fields.pop("wordsPerLine", UNSET)

        def _parse_position(
            data: object,
        ) -> FramewrightMovieDocumentV1ScenesItemElementsItemType4PositionType1 | Literal["center"] | Unset:
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
            position_type_1 = FramewrightMovieDocumentV1ScenesItemElementsItemType4PositionType1.from_dict(data)

            return position_type_1

        position = _parse_position(_fields.pop("position", UNSET))

        start = _fields.pop("start", UNSET)

        duration = _fields.pop("duration", UNSET)

        _stroke = _fields.pop("stroke", UNSET)
        stroke: FramewrightMovieDocumentV1ScenesItemElementsItemType4Stroke | Unset
        if isinstance(_stroke, Unset):
            stroke = UNSET
        else:
            stroke = FramewrightMovieDocumentV1ScenesItemElementsItemType4Stroke.from_dict(_stroke)

        _shadow = _fields.pop("shadow", UNSET)
        shadow: FramewrightMovieDocumentV1ScenesItemElementsItemType4Shadow | Unset
        if isinstance(_shadow, Unset):
            shadow = UNSET
        else:
            shadow = FramewrightMovieDocumentV1ScenesItemElementsItemType4Shadow.from_dict(_shadow)

        _background = _fields.pop("background", UNSET)
        background: FramewrightMovieDocumentV1ScenesItemElementsItemType4Background | Unset
        if isinstance(_background, Unset):
            background = UNSET
        else:
            background = FramewrightMovieDocumentV1ScenesItemElementsItemType4Background.from_dict(_background)

        letter_spacing = _fields.pop("letterSpacing", UNSET)

        line_height = _fields.pop("lineHeight", UNSET)

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

        max_lines = _fields.pop("maxLines", UNSET)

        lang = _fields.pop("lang", UNSET)

        def _parse_style(
            data: object,
        ) -> Literal["boxed"] | Literal["karaoke"] | Literal["lines"] | Literal["pop"] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not data == "karaoke":
                    raise TypeError()
                style_type_0 = cast(Literal["karaoke"], data)
                if style_type_0 != "karaoke":
                    raise ValueError(f"style_type_0 must match const 'karaoke', got '{style_type_0}'")
                return style_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "pop":
                    raise TypeError()
                style_type_1 = cast(Literal["pop"], data)
                if style_type_1 != "pop":
                    raise ValueError(f"style_type_1 must match const 'pop', got '{style_type_1}'")
                return style_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "boxed":
                    raise TypeError()
                style_type_2 = cast(Literal["boxed"], data)
                if style_type_2 != "boxed":
                    raise ValueError(f"style_type_2 must match const 'boxed', got '{style_type_2}'")
                return style_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not data == "lines":
                raise TypeError()
            style_type_3 = cast(Literal["lines"], data)
            if style_type_3 != "lines":
                raise ValueError(f"style_type_3 must match const 'lines', got '{style_type_3}'")
            return style_type_3

        style = _parse_style(_fields.pop("style", UNSET))

        from_ = _fields.pop("from", UNSET)

        language = _fields.pop("language", UNSET)

        src = _fields.pop("src", UNSET)

        framewright_movie_document_v1_scenes_item_elements_item_type_4 = cls(
            id=id,
            type_=type_,
            font=font,
            font_size=font_size,
            font_weight=font_weight,
            color=color,
            highlight_color=highlight_color,
            background_color=background_color,
            words_per_line=words_per_line,
            position=position,
            start=start,
            duration=duration,
            stroke=stroke,
            shadow=shadow,
            background=background,
            letter_spacing=letter_spacing,
            line_height=line_height,
            align=align,
            max_width=max_width,
            max_lines=max_lines,
            lang=lang,
            style=style,
            from_=from_,
            language=language,
            src=src,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_4
