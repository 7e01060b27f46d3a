from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.framewright_movie_document_v1 import FramewrightMovieDocumentV1
    from ..models.variable_values import VariableValues


T = TypeVar("T", bound="CreatePreviewBody")


@_attrs_define
class CreatePreviewBody:
    """Exactly one of `movie` and `template_id`, with the variables to resolve it with.

    Attributes:
        movie (FramewrightMovieDocumentV1 | Unset): Structure of a movie document. Some rules are beyond JSON Schema and
            are checked by the service: unique scene and element ids, preset or width+height, "voice" scenes need a voice
            element, elements end within their scene, variable defaults match their type, a text element with autoFit needs
            maxHeight or maxLines and a minFontSize at most its fontSize, subtitles take backgroundColor or background but
            not both. {{name}} placeholders are resolved before this schema applies.
        template_id (str | Unset): A template's id: its body is the document.
        variables (VariableValues | Unset): Values of the variables the document declares, keyed by name. Each is
            coerced losslessly to its declared type ("42" is a number, "true" a boolean); null or absent means the declared
            default. A name the document does not declare is a VALIDATION_ERROR at variables.<name>; a value that does not
            fit is VARIABLE_TYPE_MISMATCH at the variable's first reference.
    """

    movie: FramewrightMovieDocumentV1 | Unset = UNSET
    template_id: str | Unset = UNSET
    variables: VariableValues | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        movie: dict[str, Any] | Unset = UNSET
        if not isinstance(self.movie, Unset):
            movie = self.movie.to_dict()

        template_id = self.template_id

        variables: dict[str, Any] | Unset = UNSET
        if not isinstance(self.variables, Unset):
            variables = self.variables.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if movie is not UNSET:
            field_dict["movie"] = movie
        if template_id is not UNSET:
            field_dict["template_id"] = template_id
        if variables is not UNSET:
            field_dict["variables"] = variables

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.framewright_movie_document_v1 import FramewrightMovieDocumentV1  # noqa: PLC0415
        from ..models.variable_values import VariableValues  # noqa: PLC0415

        _fields = dict(src_dict)
        _movie = _fields.pop("movie", UNSET)
        movie: FramewrightMovieDocumentV1 | Unset
        if isinstance(_movie, Unset):
            movie = UNSET
        else:
            movie = FramewrightMovieDocumentV1.from_dict(_movie)

        template_id = _fields.pop("template_id", UNSET)

        _variables = _fields.pop("variables", UNSET)
        variables: VariableValues | Unset
        if isinstance(_variables, Unset):
            variables = UNSET
        else:
            variables = VariableValues.from_dict(_variables)

        create_preview_body = cls(
            movie=movie,
            template_id=template_id,
            variables=variables,
        )

        return create_preview_body
