from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType6To")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType6To:
    """Where a line ends.

    Attributes:
        x (float): Output pixels from the box’s left edge.
        y (float): Output pixels from the box’s top edge.
    """

    x: float
    y: float

    def to_dict(self) -> dict[str, Any]:
        x = self.x

        y = self.y

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "x": x,
                "y": y,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        x = _fields.pop("x")

        y = _fields.pop("y")

        framewright_movie_document_v1_scenes_item_elements_item_type_6_to = cls(
            x=x,
            y=y,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_6_to
