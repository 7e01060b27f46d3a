from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.create_key_body_mode import CreateKeyBodyMode, check_create_key_body_mode
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateKeyBody")


@_attrs_define
class CreateKeyBody:
    """
    Attributes:
        mode (CreateKeyBodyMode | Unset): live or test; default: the mode of the calling key. A test key creates test
            keys only.
    """

    mode: CreateKeyBodyMode | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        mode: str | Unset = UNSET
        if not isinstance(self.mode, Unset):
            mode = self.mode

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if mode is not UNSET:
            field_dict["mode"] = mode

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        _mode = _fields.pop("mode", UNSET)
        mode: CreateKeyBodyMode | Unset
        if isinstance(_mode, Unset):
            mode = UNSET
        else:
            mode = check_create_key_body_mode(_mode)

        create_key_body = cls(
            mode=mode,
        )

        return create_key_body
