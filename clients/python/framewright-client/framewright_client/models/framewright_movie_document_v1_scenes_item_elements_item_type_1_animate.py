from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_1_animate_crop_item import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateCropItem,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_1_animate_opacity_item import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateOpacityItem,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_1_animate_rotation_item import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateRotationItem,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_1_animate_scale_item import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateScaleItem,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_1_animate_scale_x_item import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateScaleXItem,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_1_animate_scale_y_item import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateScaleYItem,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_1_animate_x_item import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateXItem,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_1_animate_y_item import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateYItem,
    )


T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType1Animate")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType1Animate:
    """Keyframe tracks, one per property: values between keys follow each key's easing.

    Attributes:
        x (list[FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateXItem] | Unset): Keys of the left edge, in
            time order, within the element's time.
        y (list[FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateYItem] | Unset): Keys of the top edge, in
            time order, within the element's time.
        scale (list[FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateScaleItem] | Unset): Keys of the scale,
            in time order, within the element's time.
        scale_x (list[FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateScaleXItem] | Unset): Keys of the
            horizontal scale, in time order, within the element's time.
        scale_y (list[FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateScaleYItem] | Unset): Keys of the
            vertical scale, in time order, within the element's time.
        rotation (list[FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateRotationItem] | Unset): Keys of the
            rotation, in time order, within the element's time.
        opacity (list[FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateOpacityItem] | Unset): Keys of the
            opacity, in time order, within the element's time.
        crop (list[FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateCropItem] | Unset): Keys of the crop
            rectangle, in time order, within the element's time.
    """

    x: list[FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateXItem] | Unset = UNSET
    y: list[FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateYItem] | Unset = UNSET
    scale: list[FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateScaleItem] | Unset = UNSET
    scale_x: list[FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateScaleXItem] | Unset = UNSET
    scale_y: list[FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateScaleYItem] | Unset = UNSET
    rotation: list[FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateRotationItem] | Unset = UNSET
    opacity: list[FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateOpacityItem] | Unset = UNSET
    crop: list[FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateCropItem] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        x: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.x, Unset):
            x = []
            for x_item_data in self.x:
                x_item = x_item_data.to_dict()
                x.append(x_item)

        y: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.y, Unset):
            y = []
            for y_item_data in self.y:
                y_item = y_item_data.to_dict()
                y.append(y_item)

        scale: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.scale, Unset):
            scale = []
            for scale_item_data in self.scale:
                scale_item = scale_item_data.to_dict()
                scale.append(scale_item)

        scale_x: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.scale_x, Unset):
            scale_x = []
            for scale_x_item_data in self.scale_x:
                scale_x_item = scale_x_item_data.to_dict()
                scale_x.append(scale_x_item)

        scale_y: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.scale_y, Unset):
            scale_y = []
            for scale_y_item_data in self.scale_y:
                scale_y_item = scale_y_item_data.to_dict()
                scale_y.append(scale_y_item)

        rotation: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.rotation, Unset):
            rotation = []
            for rotation_item_data in self.rotation:
                rotation_item = rotation_item_data.to_dict()
                rotation.append(rotation_item)

        opacity: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.opacity, Unset):
            opacity = []
            for opacity_item_data in self.opacity:
                opacity_item = opacity_item_data.to_dict()
                opacity.append(opacity_item)

        crop: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.crop, Unset):
            crop = []
            for crop_item_data in self.crop:
                crop_item = crop_item_data.to_dict()
                crop.append(crop_item)

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if x is not UNSET:
            field_dict["x"] = x
        if y is not UNSET:
            field_dict["y"] = y
        if scale is not UNSET:
            field_dict["scale"] = scale
        if scale_x is not UNSET:
            field_dict["scaleX"] = scale_x
        if scale_y is not UNSET:
            field_dict["scaleY"] = scale_y
        if rotation is not UNSET:
            field_dict["rotation"] = rotation
        if opacity is not UNSET:
            field_dict["opacity"] = opacity
        if crop is not UNSET:
            field_dict["crop"] = crop

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_1_animate_crop_item import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateCropItem,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_1_animate_opacity_item import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateOpacityItem,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_1_animate_rotation_item import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateRotationItem,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_1_animate_scale_item import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateScaleItem,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_1_animate_scale_x_item import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateScaleXItem,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_1_animate_scale_y_item import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateScaleYItem,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_1_animate_x_item import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateXItem,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_1_animate_y_item import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateYItem,  # noqa: PLC0415
        )

        _fields = dict(src_dict)
        _x = _fields.pop("x", UNSET)
        x: list[FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateXItem] | Unset = UNSET
        if _x is not UNSET:
            x = []
            for x_item_data in _x:
                x_item = FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateXItem.from_dict(x_item_data)

                x.append(x_item)

        _y = _fields.pop("y", UNSET)
        y: list[FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateYItem] | Unset = UNSET
        if _y is not UNSET:
            y = []
            for y_item_data in _y:
                y_item = FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateYItem.from_dict(y_item_data)

                y.append(y_item)

        _scale = _fields.pop("scale", UNSET)
        scale: list[FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateScaleItem] | Unset = UNSET
        if _scale is not UNSET:
            scale = []
            for scale_item_data in _scale:
                scale_item = FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateScaleItem.from_dict(
                    scale_item_data
                )

                scale.append(scale_item)

        _scale_x = _fields.pop("scaleX", UNSET)
        scale_x: list[FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateScaleXItem] | Unset = UNSET
        if _scale_x is not UNSET:
            scale_x = []
            for scale_x_item_data in _scale_x:
                scale_x_item = FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateScaleXItem.from_dict(
                    scale_x_item_data
                )

                scale_x.append(scale_x_item)

        _scale_y = _fields.pop("scaleY", UNSET)
        scale_y: list[FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateScaleYItem] | Unset = UNSET
        if _scale_y is not UNSET:
            scale_y = []
            for scale_y_item_data in _scale_y:
                scale_y_item = FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateScaleYItem.from_dict(
                    scale_y_item_data
                )

                scale_y.append(scale_y_item)

        _rotation = _fields.pop("rotation", UNSET)
        rotation: list[FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateRotationItem] | Unset = UNSET
        if _rotation is not UNSET:
            rotation = []
            for rotation_item_data in _rotation:
                rotation_item = FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateRotationItem.from_dict(
                    rotation_item_data
                )

                rotation.append(rotation_item)

        _opacity = _fields.pop("opacity", UNSET)
        opacity: list[FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateOpacityItem] | Unset = UNSET
        if _opacity is not UNSET:
            opacity = []
            for opacity_item_data in _opacity:
                opacity_item = FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateOpacityItem.from_dict(
                    opacity_item_data
                )

                opacity.append(opacity_item)

        _crop = _fields.pop("crop", UNSET)
        crop: list[FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateCropItem] | Unset = UNSET
        if _crop is not UNSET:
            crop = []
            for crop_item_data in _crop:
                crop_item = FramewrightMovieDocumentV1ScenesItemElementsItemType1AnimateCropItem.from_dict(
                    crop_item_data
                )

                crop.append(crop_item)

        framewright_movie_document_v1_scenes_item_elements_item_type_1_animate = cls(
            x=x,
            y=y,
            scale=scale,
            scale_x=scale_x,
            scale_y=scale_y,
            rotation=rotation,
            opacity=opacity,
            crop=crop,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_1_animate
