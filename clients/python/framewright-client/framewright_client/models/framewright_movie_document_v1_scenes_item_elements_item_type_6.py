from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6_animate import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType6Animate,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6_animation import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType6Animation,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6_fill_type_1_type_0 import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type0,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6_fill_type_1_type_1 import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type1,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6_from import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType6From,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6_points_item import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType6PointsItem,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6_position_type_1 import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType6PositionType1,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6_stroke import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType6Stroke,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6_to import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType6To,
    )


T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType6")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType6:
    """A vector shape drawn anti-aliased into a box: rectangle, ellipse, line, polygon or SVG path, filled with a colour or
    gradient and stroked.

        Attributes:
            id (str): Element id, unique across the document.
            type_ (Literal['shape']):
            shape (Literal['ellipse'] | Literal['line'] | Literal['path'] | Literal['polygon'] | Literal['rectangle']):
                rectangle and ellipse fill the box; line joins from and to; polygon joins points; path draws d (SVG path data).
                Coordinates are output pixels from the box’s top-left corner; what falls outside the box (its stroke aside) is
                cut off.
            width (int | Unset): Width of the box in output pixels. Default: the frame width.
            height (int | Unset): Height of the box in output pixels. Default: the frame height.
            position (FramewrightMovieDocumentV1ScenesItemElementsItemType6PositionType1 | Literal['center'] | Unset):
                "center" (default) centres the box; {x, y} is its top-left. Default: 'center'.
            start (float | Unset): Seconds from the scene start at which the element appears. Must be before the scene ends.
                Default: 0.0.
            duration (float | Unset): Seconds the element stays visible. Default: until the scene ends. Must end within the
                scene.
            animation (FramewrightMovieDocumentV1ScenesItemElementsItemType6Animation | Unset): Entry and exit animations of
                the element (presets, expanded to keyframes).
            animate (FramewrightMovieDocumentV1ScenesItemElementsItemType6Animate | Unset): Keyframe tracks, one per
                property: values between keys follow each key's easing.
            corner_radius (float | Unset): Rounded corners of a rectangle, output pixels (at most half the box's shorter
                side is used). Default: 0.0.
            from_ (FramewrightMovieDocumentV1ScenesItemElementsItemType6From | Unset): Where a line starts.
            to (FramewrightMovieDocumentV1ScenesItemElementsItemType6To | Unset): Where a line ends.
            points (list[FramewrightMovieDocumentV1ScenesItemElementsItemType6PointsItem] | Unset): Vertices of a polygon,
                joined in order and closed.
            d (str | Unset): SVG path data of a path (M, L, H, V, C, S, Q, T, A, Z and their relative forms), in output
                pixels from the box’s top-left corner. Filled by the non-zero rule.
            fill (FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type0 |
                FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type1 | str | Unset): Colour or gradient inside
                the shape. Default: #ffffff, or none when a stroke is given. A line has no fill.
            stroke (FramewrightMovieDocumentV1ScenesItemElementsItemType6Stroke | Unset): The outline of the shape.
    """

    id: str
    type_: Literal["shape"]
    shape: Literal["ellipse"] | Literal["line"] | Literal["path"] | Literal["polygon"] | Literal["rectangle"]
    width: int | Unset = UNSET
    height: int | Unset = UNSET
    position: FramewrightMovieDocumentV1ScenesItemElementsItemType6PositionType1 | Literal["center"] | Unset = "center"
    start: float | Unset = 0.0
    duration: float | Unset = UNSET
    animation: FramewrightMovieDocumentV1ScenesItemElementsItemType6Animation | Unset = UNSET
    animate: FramewrightMovieDocumentV1ScenesItemElementsItemType6Animate | Unset = UNSET
    corner_radius: float | Unset = 0.0
    from_: FramewrightMovieDocumentV1ScenesItemElementsItemType6From | Unset = UNSET
    to: FramewrightMovieDocumentV1ScenesItemElementsItemType6To | Unset = UNSET
    points: list[FramewrightMovieDocumentV1ScenesItemElementsItemType6PointsItem] | Unset = UNSET
    d: str | Unset = UNSET
    fill: (
        FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type0
        | FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type1
        | str
        | Unset
    ) = UNSET
    stroke: FramewrightMovieDocumentV1ScenesItemElementsItemType6Stroke | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6_fill_type_1_type_0 import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type0,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6_fill_type_1_type_1 import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type1,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6_position_type_1 import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType6PositionType1,  # noqa: PLC0415
        )

        id = self.id

        type_ = self.type_

        shape: Literal["ellipse"] | Literal["line"] | Literal["path"] | Literal["polygon"] | Literal["rectangle"]
        shape = self.shape

        width = self.width

        height = self.height

        position: dict[str, Any] | Literal["center"] | Unset
        if isinstance(self.position, Unset):
            position = UNSET
        elif isinstance(self.position, FramewrightMovieDocumentV1ScenesItemElementsItemType6PositionType1):
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

        corner_radius = self.corner_radius

        from_: dict[str, Any] | Unset = UNSET
        if not isinstance(self.from_, Unset):
            from_ = self.from_.to_dict()

        to: dict[str, Any] | Unset = UNSET
        if not isinstance(self.to, Unset):
            to = self.to.to_dict()

        points: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.points, Unset):
            points = []
            for points_item_data in self.points:
                points_item = points_item_data.to_dict()
                points.append(points_item)

        d = self.d

        fill: dict[str, Any] | str | Unset
        if isinstance(self.fill, Unset):
            fill = UNSET
        elif isinstance(self.fill, FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type0):
            fill = self.fill.to_dict()
        elif isinstance(self.fill, FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type1):
            fill = self.fill.to_dict()
        else:
            fill = self.fill

        stroke: dict[str, Any] | Unset = UNSET
        if not isinstance(self.stroke, Unset):
            stroke = self.stroke.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "type": type_,
                "shape": shape,
            }
        )
        if width is not UNSET:
            field_dict["width"] = width
        if height is not UNSET:
            field_dict["height"] = height
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
        if corner_radius is not UNSET:
            field_dict["cornerRadius"] = corner_radius
        if from_ is not UNSET:
            field_dict["from"] = from_
        if to is not UNSET:
            field_dict["to"] = to
        if points is not UNSET:
            field_dict["points"] = points
        if d is not UNSET:
            field_dict["d"] = d
        if fill is not UNSET:
            field_dict["fill"] = fill
        if stroke is not UNSET:
            field_dict["stroke"] = stroke

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6_animate import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType6Animate,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6_animation import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType6Animation,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6_fill_type_1_type_0 import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type0,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6_fill_type_1_type_1 import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type1,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6_from import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType6From,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6_points_item import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType6PointsItem,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6_position_type_1 import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType6PositionType1,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6_stroke import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType6Stroke,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6_to import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType6To,  # noqa: PLC0415
        )

        _fields = dict(src_dict)
        id = _fields.pop("id")

        type_ = cast(Literal["shape"], _fields.pop("type"))
        if type_ != "shape":
            raise ValueError(f"type must match const 'shape', got '{type_}'")

        def _parse_shape(
            data: object,
        ) -> Literal["ellipse"] | Literal["line"] | Literal["path"] | Literal["polygon"] | Literal["rectangle"]:
            try:
                if not data == "rectangle":
                    raise TypeError()
                shape_type_0 = cast(Literal["rectangle"], data)
                if shape_type_0 != "rectangle":
                    raise ValueError(f"shape_type_0 must match const 'rectangle', got '{shape_type_0}'")
                return shape_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "ellipse":
                    raise TypeError()
                shape_type_1 = cast(Literal["ellipse"], data)
                if shape_type_1 != "ellipse":
                    raise ValueError(f"shape_type_1 must match const 'ellipse', got '{shape_type_1}'")
                return shape_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "line":
                    raise TypeError()
                shape_type_2 = cast(Literal["line"], data)
                if shape_type_2 != "line":
                    raise ValueError(f"shape_type_2 must match const 'line', got '{shape_type_2}'")
                return shape_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "polygon":
                    raise TypeError()
                shape_type_3 = cast(Literal["polygon"], data)
                if shape_type_3 != "polygon":
                    raise ValueError(f"shape_type_3 must match const 'polygon', got '{shape_type_3}'")
                return shape_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not data == "path":
                raise TypeError()
            shape_type_4 = cast(Literal["path"], data)
            if shape_type_4 != "path":
                raise ValueError(f"shape_type_4 must match const 'path', got '{shape_type_4}'")
            return shape_type_4

        shape = _parse_shape(_fields.pop("shape"))

        width = _fields.pop("width", UNSET)

        height = _fields.pop("height", UNSET)

        def _parse_position(
            data: object,
        ) -> FramewrightMovieDocumentV1ScenesItemElementsItemType6PositionType1 | Literal["center"] | Unset:
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
            position_type_1 = FramewrightMovieDocumentV1ScenesItemElementsItemType6PositionType1.from_dict(data)

            return position_type_1

        position = _parse_position(_fields.pop("position", UNSET))

        start = _fields.pop("start", UNSET)

        duration = _fields.pop("duration", UNSET)

        _animation = _fields.pop("animation", UNSET)
        animation: FramewrightMovieDocumentV1ScenesItemElementsItemType6Animation | Unset
        if isinstance(_animation, Unset):
            animation = UNSET
        else:
            animation = FramewrightMovieDocumentV1ScenesItemElementsItemType6Animation.from_dict(_animation)

        _animate = _fields.pop("animate", UNSET)
        animate: FramewrightMovieDocumentV1ScenesItemElementsItemType6Animate | Unset
        if isinstance(_animate, Unset):
            animate = UNSET
        else:
            animate = FramewrightMovieDocumentV1ScenesItemElementsItemType6Animate.from_dict(_animate)

        corner_radius = _fields.pop("cornerRadius", UNSET)

        _from_ = _fields.pop("from", UNSET)
        from_: FramewrightMovieDocumentV1ScenesItemElementsItemType6From | Unset
        if isinstance(_from_, Unset):
            from_ = UNSET
        else:
            from_ = FramewrightMovieDocumentV1ScenesItemElementsItemType6From.from_dict(_from_)

        _to = _fields.pop("to", UNSET)
        to: FramewrightMovieDocumentV1ScenesItemElementsItemType6To | Unset
        if isinstance(_to, Unset):
            to = UNSET
        else:
            to = FramewrightMovieDocumentV1ScenesItemElementsItemType6To.from_dict(_to)

        _points = _fields.pop("points", UNSET)
        points: list[FramewrightMovieDocumentV1ScenesItemElementsItemType6PointsItem] | Unset = UNSET
        if _points is not UNSET:
            points = []
            for points_item_data in _points:
                points_item = FramewrightMovieDocumentV1ScenesItemElementsItemType6PointsItem.from_dict(
                    points_item_data
                )

                points.append(points_item)

        d = _fields.pop("d", UNSET)

        def _parse_fill(
            data: object,
        ) -> (
            FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type0
            | FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type1
            | str
            | Unset
        ):
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                fill_type_1_type_0 = FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type0.from_dict(data)

                return fill_type_1_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                fill_type_1_type_1 = FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type1.from_dict(data)

                return fill_type_1_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type0
                | FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type1
                | str
                | Unset,
                data,
            )

        fill = _parse_fill(_fields.pop("fill", UNSET))

        _stroke = _fields.pop("stroke", UNSET)
        stroke: FramewrightMovieDocumentV1ScenesItemElementsItemType6Stroke | Unset
        if isinstance(_stroke, Unset):
            stroke = UNSET
        else:
            stroke = FramewrightMovieDocumentV1ScenesItemElementsItemType6Stroke.from_dict(_stroke)

        framewright_movie_document_v1_scenes_item_elements_item_type_6 = cls(
            id=id,
            type_=type_,
            shape=shape,
            width=width,
            height=height,
            position=position,
            start=start,
            duration=duration,
            animation=animation,
            animate=animate,
            corner_radius=corner_radius,
            from_=from_,
            to=to,
            points=points,
            d=d,
            fill=fill,
            stroke=stroke,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_6
