from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6_fill_type_1_type_1_stops_item import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type1StopsItem,
    )


T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type1")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type1:
    """A radial gradient from the box's centre (offset 0) to its corners (offset 1), an ellipse of the box's proportions.

    Attributes:
        type_ (Literal['radial']):
        stops (list[FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type1StopsItem]): Colours and where
            they are, offsets in increasing order; between them colours blend in sRGB.
    """

    type_: Literal["radial"]
    stops: list[FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type1StopsItem]

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        stops = []
        for stops_item_data in self.stops:
            stops_item = stops_item_data.to_dict()
            stops.append(stops_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "stops": stops,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6_fill_type_1_type_1_stops_item import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type1StopsItem,  # noqa: PLC0415
        )

        _fields = dict(src_dict)
        type_ = cast(Literal["radial"], _fields.pop("type"))
        if type_ != "radial":
            raise ValueError(f"type must match const 'radial', got '{type_}'")

        stops = []
        _stops = _fields.pop("stops")
        for stops_item_data in _stops:
            stops_item = FramewrightMovieDocumentV1ScenesItemElementsItemType6FillType1Type1StopsItem.from_dict(
                stops_item_data
            )

            stops.append(stops_item)

        framewright_movie_document_v1_scenes_item_elements_item_type_6_fill_type_1_type_1 = cls(
            type_=type_,
            stops=stops,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_6_fill_type_1_type_1
