from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.get_render_response_200_error_type_0_code import (
    GetRenderResponse200ErrorType0Code,
    check_get_render_response_200_error_type_0_code,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="GetRenderResponse200ErrorType0")


@_attrs_define
class GetRenderResponse200ErrorType0:
    """
    Attributes:
        code (GetRenderResponse200ErrorType0Code): Stable, machine-matchable code.
        message (str):
        docs_url (str):
        path (str | Unset): Exact JSON path of the offending field.
    """

    code: GetRenderResponse200ErrorType0Code
    message: str
    docs_url: str
    path: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        code: str = self.code

        message = self.message

        docs_url = self.docs_url

        path = self.path

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "code": code,
                "message": message,
                "docsUrl": docs_url,
            }
        )
        if path is not UNSET:
            field_dict["path"] = path

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        code = check_get_render_response_200_error_type_0_code(_fields.pop("code"))

        message = _fields.pop("message")

        docs_url = _fields.pop("docsUrl")

        path = _fields.pop("path", UNSET)

        get_render_response_200_error_type_0 = cls(
            code=code,
            message=message,
            docs_url=docs_url,
            path=path,
        )

        return get_render_response_200_error_type_0
