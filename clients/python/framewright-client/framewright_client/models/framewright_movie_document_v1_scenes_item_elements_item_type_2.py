from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_2_animate import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType2Animate,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_2_animation import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType2Animation,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_2_background import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType2Background,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_2_border import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType2Border,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_2_chroma_key import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType2ChromaKey,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_2_filters import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType2Filters,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_2_position_type_1 import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType2PositionType1,
    )


T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType2")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType2:
    """A video clip drawn into a box, frame-exact at any source frame rate; its sound is mixed in unless muted.

    Attributes:
        id (str): Element id, unique across the document.
        type_ (Literal['video']):
        src (str): Absolute http(s) URL of the video (MP4, MOV or WebM) (an uploaded asset's url, or any public
            address).
        width (int | Unset): Width of the box in output pixels. Default: the frame width.
        height (int | Unset): Height of the box in output pixels. Default: the frame height.
        fit (Literal['contain'] | Literal['cover'] | Literal['fill'] | Unset): How the picture fills its box: contain
            (letterbox), cover (crop), fill (stretch). Default: 'contain'.
        position (FramewrightMovieDocumentV1ScenesItemElementsItemType2PositionType1 | Literal['center'] | Unset):
            "center" (default) centres the box; {x, y} is its top-left. Default: 'center'.
        start (float | Unset): Seconds from the scene start at which the element appears. Must be before the scene ends.
            Default: 0.0.
        duration (float | Unset): Seconds the clip stays visible. Default: as long as its trimmed part plays (until the
            scene ends when it loops). Past the end of an unlooped clip, its last frame stays. Must end within the scene.
        animation (FramewrightMovieDocumentV1ScenesItemElementsItemType2Animation | Unset): Entry and exit animations of
            the element (presets, expanded to keyframes).
        animate (FramewrightMovieDocumentV1ScenesItemElementsItemType2Animate | Unset): Keyframe tracks, one per
            property: values between keys follow each key's easing. volume: videos only.
        trim_start (float | Unset): Seconds into the source at which playing starts. Default: 0.0.
        trim_duration (float | Unset): Seconds of the source that play from trimStart. Default: to the end of the
            source.
        loop (bool | Unset): Play the trimmed part again from trimStart each time it ends, for as long as the element
            lasts. Default: False.
        volume (float | Unset): Linear gain of the sound: 1 as recorded, 0.5 about -6 dB, 0 silent. Default: 1.0.
        muted (bool | Unset): Leave the clip's sound out of the mix. Default: False.
        opacity (float | Unset): Opacity of the picture, 0 (invisible) to 1; multiplies the fade of an animation.
            Default: 1.0.
        blur (float | Unset): Gaussian blur radius in output pixels (sigma = 0.57735 * radius + 0.5, as the text
            shadow); 0: sharp. The picture is blurred within its own rectangle, its edge pixels extended. Default: 0.0.
        background (FramewrightMovieDocumentV1ScenesItemElementsItemType2Background | Unset): Fills the empty part of
            the box of a fit "contain" picture with a blurred copy of the same picture scaled to cover the box (the
            16:9-in-9:16 look). With cover or fill the picture covers its box and there is nothing to fill.
        corner_radius (float | Unset): Radius of the rounded corners in output pixels (at most half the shorter side;
            anti-aliased edge). Default: 0.0.
        border (FramewrightMovieDocumentV1ScenesItemElementsItemType2Border | Unset): A border inside the picture edge.
        filters (FramewrightMovieDocumentV1ScenesItemElementsItemType2Filters | Unset): Colour filters, applied in this
            order (brightness, contrast, saturation, grayscale), each clamped to 0..1 as CSS filter functions are.
        chroma_key (FramewrightMovieDocumentV1ScenesItemElementsItemType2ChromaKey | Unset): Makes the key colour
            transparent. Distance in the U/V chroma plane as ffmpeg chromakey computes it: sqrt((dU² + dV²) / 2) / 255 on
            8-bit U, V.
    """

    id: str
    type_: Literal["video"]
    src: str
    width: int | Unset = UNSET
    height: int | Unset = UNSET
    fit: Literal["contain"] | Literal["cover"] | Literal["fill"] | Unset = "contain"
    position: FramewrightMovieDocumentV1ScenesItemElementsItemType2PositionType1 | Literal["center"] | Unset = "center"
    start: float | Unset = 0.0
    duration: float | Unset = UNSET
    animation: FramewrightMovieDocumentV1ScenesItemElementsItemType2Animation | Unset = UNSET
    animate: FramewrightMovieDocumentV1ScenesItemElementsItemType2Animate | Unset = UNSET
    trim_start: float | Unset = 0.0
    trim_duration: float | Unset = UNSET
    loop: bool | Unset = False
    volume: float | Unset = 1.0
    muted: bool | Unset = False
    opacity: float | Unset = 1.0
    blur: float | Unset = 0.0
    background: FramewrightMovieDocumentV1ScenesItemElementsItemType2Background | Unset = UNSET
    corner_radius: float | Unset = 0.0
    border: FramewrightMovieDocumentV1ScenesItemElementsItemType2Border | Unset = UNSET
    filters: FramewrightMovieDocumentV1ScenesItemElementsItemType2Filters | Unset = UNSET
    chroma_key: FramewrightMovieDocumentV1ScenesItemElementsItemType2ChromaKey | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_2_position_type_1 import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType2PositionType1,  # noqa: PLC0415
        )

        id = self.id

        type_ = self.type_

        src = self.src

        width = self.width

        height = self.height

        fit: Literal["contain"] | Literal["cover"] | Literal["fill"] | Unset
        if isinstance(self.fit, Unset):
            fit = UNSET
        else:
            fit = self.fit

        position: dict[str, Any] | Literal["center"] | Unset
        if isinstance(self.position, Unset):
            position = UNSET
        elif isinstance(self.position, FramewrightMovieDocumentV1ScenesItemElementsItemType2PositionType1):
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

        trim_start = self.trim_start

        trim_duration = self.trim_duration

        loop = self.loop

        volume = self.volume

        muted = self.muted

        opacity = self.opacity

        blur = self.blur

        background: dict[str, Any] | Unset = UNSET
        if not isinstance(self.background, Unset):
            background = self.background.to_dict()

        corner_radius = self.corner_radius

        border: dict[str, Any] | Unset = UNSET
        if not isinstance(self.border, Unset):
            border = self.border.to_dict()

        filters: dict[str, Any] | Unset = UNSET
        if not isinstance(self.filters, Unset):
            filters = self.filters.to_dict()

        chroma_key: dict[str, Any] | Unset = UNSET
        if not isinstance(self.chroma_key, Unset):
            chroma_key = self.chroma_key.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "type": type_,
                "src": src,
            }
        )
        if width is not UNSET:
            field_dict["width"] = width
        if height is not UNSET:
            field_dict["height"] = height
        if fit is not UNSET:
            field_dict["fit"] = fit
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
        if trim_start is not UNSET:
            field_dict["trimStart"] = trim_start
        if trim_duration is not UNSET:
            field_dict["trimDuration"] = trim_duration
        if loop is not UNSET:
            field_dict["loop"] = loop
        if volume is not UNSET:
            field_dict["volume"] = volume
        if muted is not UNSET:
            field_dict["muted"] = muted
        if opacity is not UNSET:
            field_dict["opacity"] = opacity
        if blur is not UNSET:
            field_dict["blur"] = blur
        if background is not UNSET:
            field_dict["background"] = background
        if corner_radius is not UNSET:
            field_dict["cornerRadius"] = corner_radius
        if border is not UNSET:
            field_dict["border"] = border
        if filters is not UNSET:
            field_dict["filters"] = filters
        if chroma_key is not UNSET:
            field_dict["chromaKey"] = chroma_key

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_2_animate import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType2Animate,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_2_animation import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType2Animation,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_2_background import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType2Background,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_2_border import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType2Border,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_2_chroma_key import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType2ChromaKey,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_2_filters import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType2Filters,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_2_position_type_1 import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType2PositionType1,  # noqa: PLC0415
        )

        _fields = dict(src_dict)
        id = _fields.pop("id")

        type_ = cast(Literal["video"], _fields.pop("type"))
        if type_ != "video":
            raise ValueError(f"type must match const 'video', got '{type_}'")

        src = _fields.pop("src")

        width = _fields.pop("width", UNSET)

        height = _fields.pop("height", UNSET)

        def _parse_fit(data: object) -> Literal["contain"] | Literal["cover"] | Literal["fill"] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not data == "contain":
                    raise TypeError()
                fit_type_0 = cast(Literal["contain"], data)
                if fit_type_0 != "contain":
                    raise ValueError(f"fit_type_0 must match const 'contain', got '{fit_type_0}'")
                return fit_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "cover":
                    raise TypeError()
                fit_type_1 = cast(Literal["cover"], data)
                if fit_type_1 != "cover":
                    raise ValueError(f"fit_type_1 must match const 'cover', got '{fit_type_1}'")
                return fit_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not data == "fill":
                raise TypeError()
            fit_type_2 = cast(Literal["fill"], data)
            if fit_type_2 != "fill":
                raise ValueError(f"fit_type_2 must match const 'fill', got '{fit_type_2}'")
            return fit_type_2

        fit = _parse_fit(_fields.pop("fit", UNSET))

        def _parse_position(
            data: object,
        ) -> FramewrightMovieDocumentV1ScenesItemElementsItemType2PositionType1 | Literal["center"] | Unset:
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
            position_type_1 = FramewrightMovieDocumentV1ScenesItemElementsItemType2PositionType1.from_dict(data)

            return position_type_1

        position = _parse_position(_fields.pop("position", UNSET))

        start = _fields.pop("start", UNSET)

        duration = _fields.pop("duration", UNSET)

        _animation = _fields.pop("animation", UNSET)
        animation: FramewrightMovieDocumentV1ScenesItemElementsItemType2Animation | Unset
        if isinstance(_animation, Unset):
            animation = UNSET
        else:
            animation = FramewrightMovieDocumentV1ScenesItemElementsItemType2Animation.from_dict(_animation)

        _animate = _fields.pop("animate", UNSET)
        animate: FramewrightMovieDocumentV1ScenesItemElementsItemType2Animate | Unset
        if isinstance(_animate, Unset):
            animate = UNSET
        else:
            animate = FramewrightMovieDocumentV1ScenesItemElementsItemType2Animate.from_dict(_animate)

        trim_start = _fields.pop("trimStart", UNSET)

        trim_duration = _fields.pop("trimDuration", UNSET)

        loop = _fields.pop("loop", UNSET)

        volume = _fields.pop("volume", UNSET)

        muted = _fields.pop("muted", UNSET)

        opacity = _fields.pop("opacity", UNSET)

        blur = _fields.pop("blur", UNSET)

        _background = _fields.pop("background", UNSET)
        background: FramewrightMovieDocumentV1ScenesItemElementsItemType2Background | Unset
        if isinstance(_background, Unset):
            background = UNSET
        else:
            background = FramewrightMovieDocumentV1ScenesItemElementsItemType2Background.from_dict(_background)

        corner_radius = _fields.pop("cornerRadius", UNSET)

        _border = _fields.pop("border", UNSET)
        border: FramewrightMovieDocumentV1ScenesItemElementsItemType2Border | Unset
        if isinstance(_border, Unset):
            border = UNSET
        else:
            border = FramewrightMovieDocumentV1ScenesItemElementsItemType2Border.from_dict(_border)

        _filters = _fields.pop("filters", UNSET)
        filters: FramewrightMovieDocumentV1ScenesItemElementsItemType2Filters | Unset
        if isinstance(_filters, Unset):
            filters = UNSET
        else:
            filters = FramewrightMovieDocumentV1ScenesItemElementsItemType2Filters.from_dict(_filters)

        _chroma_key = _fields.pop("chromaKey", UNSET)
        chroma_key: FramewrightMovieDocumentV1ScenesItemElementsItemType2ChromaKey | Unset
        if isinstance(_chroma_key, Unset):
            chroma_key = UNSET
        else:
            chroma_key = FramewrightMovieDocumentV1ScenesItemElementsItemType2ChromaKey.from_dict(_chroma_key)

        framewright_movie_document_v1_scenes_item_elements_item_type_2 = cls(
            id=id,
            type_=type_,
            src=src,
            width=width,
            height=height,
            fit=fit,
            position=position,
            start=start,
            duration=duration,
            animation=animation,
            animate=animate,
            trim_start=trim_start,
            trim_duration=trim_duration,
            loop=loop,
            volume=volume,
            muted=muted,
            opacity=opacity,
            blur=blur,
            background=background,
            corner_radius=corner_radius,
            border=border,
            filters=filters,
            chroma_key=chroma_key,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_2
