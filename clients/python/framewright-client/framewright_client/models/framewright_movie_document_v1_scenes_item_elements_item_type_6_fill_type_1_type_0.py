from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6_fill_type_1_type_0_stops_item import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type0StopsItem,
    )


T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type0")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type0:
    """A linear gradient across the box.

    Attributes:
        type_ (Literal['linear']):
        stops (list[FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type0StopsItem]): Colours and where
            they are, offsets in increasing order; between them colours blend in sRGB.
        angle (float | Unset): Direction in degrees, as in CSS: 0 runs bottom to top, 90 left to right, 180 top to
            bottom. The gradient spans the box, corner to corner along that direction. Default: 180.0.
    """

    type_: Literal["linear"]
    stops: list[FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type0StopsItem]
    angle: float | Unset = 180.0

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        stops = []
        for stops_item_data in self.stops:
            stops_item = stops_item_data.to_dict()
            stops.append(stops_item)

        angle = self.angle

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "stops": stops,
            }
        )
        if angle is not UNSET:
            field_dict["angle"] = angle

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6_fill_type_1_type_0_stops_item import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type0StopsItem,  # noqa: PLC0415
        )

        _fields = dict(src_dict)
        type_ = cast(Literal["linear"], _fields.pop("type"))
        if type_ != "linear":
            raise ValueError(f"type must match const 'linear', got '{type_}'")

        stops = []
        _stops = _fields.pop("stops")
        for stops_item_data in _stops:
            stops_item = FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type0StopsItem.from_dict(
                stops_item_data
            )

            stops.append(stops_item)

        angle = _fields.pop("angle", UNSET)

        framewright_movie_document_v1_scenes_item_elements_item_type_6_fill_type_1_type_0 = cls(
            type_=type_,
            stops=stops,
            angle=angle,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_6_fill_type_1_type_0
