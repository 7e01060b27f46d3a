from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="UpdateTemplateResponse200WarningsItem")


@_attrs_define
class UpdateTemplateResponse200WarningsItem:
    """
    Attributes:
        code (str): Warning code, e.g. VARIABLE_UNUSED.
        message (str):
        path (str): JSON path inside the movie document.
    """

    code: str
    message: str
    path: str

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        message = self.message

        path = self.path

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "code": code,
                "message": message,
                "path": path,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        code = _fields.pop("code")

        message = _fields.pop("message")

        path = _fields.pop("path")

        update_template_response_200_warnings_item = cls(
            code=code,
            message=message,
            path=path,
        )

        return update_template_response_200_warnings_item
