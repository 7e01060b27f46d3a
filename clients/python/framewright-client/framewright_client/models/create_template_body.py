from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.framewright_movie_document_v1 import FramewrightMovieDocumentV1


T = TypeVar("T", bound="CreateTemplateBody")


@_attrs_define
class CreateTemplateBody:
    """
    Attributes:
        name (str):
        body (FramewrightMovieDocumentV1): Structure of a movie document. Some rules are beyond JSON Schema and are
            checked by the service: unique scene and element ids, preset or width+height, "voice" scenes need a voice
            element, elements end within their scene, variable defaults match their type, a text element with autoFit needs
            maxHeight or maxLines and a minFontSize at most its fontSize, subtitles take backgroundColor or background but
            not both. {{name}} placeholders are resolved before this schema applies.
    """

    name: str
    body: FramewrightMovieDocumentV1

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        body = self.body.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "body": body,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.framewright_movie_document_v1 import FramewrightMovieDocumentV1  # noqa: PLC0415

        _fields = dict(src_dict)
        name = _fields.pop("name")

        body = FramewrightMovieDocumentV1.from_dict(_fields.pop("body"))

        create_template_body = cls(
            name=name,
            body=body,
        )

        return create_template_body
