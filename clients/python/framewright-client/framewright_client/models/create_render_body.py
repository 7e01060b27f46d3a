from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.framewright_movie_document_v1 import FramewrightMovieDocumentV1
    from ..models.variable_values import VariableValues


T = TypeVar("T", bound="CreateRenderBody")


@_attrs_define
class CreateRenderBody:
    """
    Attributes:
        movie (FramewrightMovieDocumentV1): Structure of a movie document. Some rules are beyond JSON Schema and are
            checked by the service: unique scene and element ids, preset or width+height, "voice" scenes need a voice
            element, elements end within their scene, variable defaults match their type, a text element with autoFit needs
            maxHeight or maxLines and a minFontSize at most its fontSize, subtitles take backgroundColor or background but
            not both. {{name}} placeholders are resolved before this schema applies.
        variables (VariableValues | Unset): Values of the variables the document declares, keyed by name. Each is
            coerced losslessly to its declared type ("42" is a number, "true" a boolean); null or absent means the declared
            default. A name the document does not declare is a VALIDATION_ERROR at variables.<name>; a value that does not
            fit is VARIABLE_TYPE_MISMATCH at the variable's first reference.
        webhook_url (str | Unset): Absolute http(s) URL notified on completion; paid plans only.
    """

    movie: FramewrightMovieDocumentV1
    variables: VariableValues | Unset = UNSET
    webhook_url: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        movie = self.movie.to_dict()

        variables: dict[str, Any] | Unset = UNSET
        if not isinstance(self.variables, Unset):
            variables = self.variables.to_dict()

        webhook_url = self.webhook_url

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "movie": movie,
            }
        )
        if variables is not UNSET:
            field_dict["variables"] = variables
        if webhook_url is not UNSET:
            field_dict["webhook_url"] = webhook_url

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.framewright_movie_document_v1 import FramewrightMovieDocumentV1  # noqa: PLC0415
        from ..models.variable_values import VariableValues  # noqa: PLC0415

        _fields = dict(src_dict)
        movie = FramewrightMovieDocumentV1.from_dict(_fields.pop("movie"))

        _variables = _fields.pop("variables", UNSET)
        variables: VariableValues | Unset
        if isinstance(_variables, Unset):
            variables = UNSET
        else:
            variables = VariableValues.from_dict(_variables)

        webhook_url = _fields.pop("webhook_url", UNSET)

        create_render_body = cls(
            movie=movie,
            variables=variables,
            webhook_url=webhook_url,
        )

        return create_render_body
