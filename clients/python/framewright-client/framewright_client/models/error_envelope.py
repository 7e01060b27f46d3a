from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.error_envelope_error import ErrorEnvelopeError
    from ..models.error_envelope_errors_item import ErrorEnvelopeErrorsItem


T = TypeVar("T", bound="ErrorEnvelope")


@_attrs_define
class ErrorEnvelope:
    """The error envelope of every non-2xx response.

    Attributes:
        error (ErrorEnvelopeError):
        request_id (str):
        errors (list[ErrorEnvelopeErrorsItem] | Unset): All findings; error equals errors[0].
    """

    error: ErrorEnvelopeError
    request_id: str
    errors: list[ErrorEnvelopeErrorsItem] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        error = self.error.to_dict()

        request_id = self.request_id

        errors: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.errors, Unset):
            errors = []
            for errors_item_data in self.errors:
                errors_item = errors_item_data.to_dict()
                errors.append(errors_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "error": error,
                "requestId": request_id,
            }
        )
        if errors is not UNSET:
            field_dict["errors"] = errors

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.error_envelope_error import ErrorEnvelopeError  # noqa: PLC0415
        from ..models.error_envelope_errors_item import ErrorEnvelopeErrorsItem  # noqa: PLC0415

        _fields = dict(src_dict)
        error = ErrorEnvelopeError.from_dict(_fields.pop("error"))

        request_id = _fields.pop("requestId")

        _errors = _fields.pop("errors", UNSET)
        errors: list[ErrorEnvelopeErrorsItem] | Unset = UNSET
        if _errors is not UNSET:
            errors = []
            for errors_item_data in _errors:
                errors_item = ErrorEnvelopeErrorsItem.from_dict(errors_item_data)

                errors.append(errors_item)

        error_envelope = cls(
            error=error,
            request_id=request_id,
            errors=errors,
        )

        return error_envelope
