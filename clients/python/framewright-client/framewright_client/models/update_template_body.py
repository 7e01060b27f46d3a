from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.framewright_movie_document_v1 import FramewrightMovieDocumentV1


T = TypeVar("T", bound="UpdateTemplateBody")


@_attrs_define
class UpdateTemplateBody:
    """name and/or body; at least one.

    Attributes:
        name (str | Unset):
        body (FramewrightMovieDocumentV1 | Unset): Structure of a movie document. Some rules are beyond JSON Schema and
            are checked by the service: unique scene and element ids, preset or width+height, "voice" scenes need a voice
            element, elements end within their scene, variable defaults match their type, a text element with autoFit needs
            maxHeight or maxLines and a minFontSize at most its fontSize, subtitles take backgroundColor or background but
            not both. {{name}} placeholders are resolved before this schema applies.
    """

    name: str | Unset = UNSET
    body: FramewrightMovieDocumentV1 | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        body: dict[str, Any] | Unset = UNSET
        if not isinstance(self.body, Unset):
            body = self.body.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if body is not UNSET:
            field_dict["body"] = body

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.framewright_movie_document_v1 import FramewrightMovieDocumentV1  # noqa: PLC0415

        _fields = dict(src_dict)
        name = _fields.pop("name", UNSET)

        _body = _fields.pop("body", UNSET)
        body: FramewrightMovieDocumentV1 | Unset
        if isinstance(_body, Unset):
            body = UNSET
        else:
            body = FramewrightMovieDocumentV1.from_dict(_body)

        update_template_body = cls(
            name=name,
            body=body,
        )

        return update_template_body
