from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType1ChromaKey")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType1ChromaKey:
    """Makes the key colour transparent. Distance in the U/V chroma plane as ffmpeg chromakey computes it: sqrt((dU² + dV²)
    / 2) / 255 on 8-bit U, V.

        Attributes:
            color (str | Unset): The key colour made transparent. Default: '#00ff00'.
            similarity (float | Unset): ffmpeg chromakey's similarity: pixels whose chroma distance to the key is at most
                this are transparent. Default: 0.1.
            smoothness (float | Unset): ffmpeg chromakey's blend: alpha rises linearly from 0 at similarity to 1 at
                similarity + smoothness (0: a hard edge). Default: 0.08.
    """

    color: str | Unset = "#00ff00"
    similarity: float | Unset = 0.1
    smoothness: float | Unset = 0.08

    def to_dict(self) -> dict[str, Any]:
        color = self.color

        similarity = self.similarity

        smoothness = self.smoothness

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if color is not UNSET:
            field_dict["color"] = color
        if similarity is not UNSET:
            field_dict["similarity"] = similarity
        if smoothness is not UNSET:
            field_dict["smoothness"] = smoothness

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        color = _fields.pop("color", UNSET)

        similarity = _fields.pop("similarity", UNSET)

        smoothness = _fields.pop("smoothness", UNSET)

        framewright_movie_document_v1_scenes_item_elements_item_type_1_chroma_key = cls(
            color=color,
            similarity=similarity,
            smoothness=smoothness,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_1_chroma_key
