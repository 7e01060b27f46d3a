from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="VariableValues")


@_attrs_define
class VariableValues:
    """Values of the variables the document declares, keyed by name. Each is coerced losslessly to its declared type ("42"
    is a number, "true" a boolean); null or absent means the declared default. A name the document does not declare is a
    VALIDATION_ERROR at variables.<name>; a value that does not fit is VARIABLE_TYPE_MISMATCH at the variable's first
    reference.

    """

    additional_properties: dict[str, bool | float | None | str] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:

        field_dict: dict[str, Any] = {}
        for prop_name, prop in self.additional_properties.items():
            field_dict[prop_name] = prop

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        variable_values = cls()

        additional_properties = {}
        for prop_name, prop_dict in _fields.items():

            def _parse_additional_property(data: object) -> bool | float | None | str:
                if data is None:
                    return data
                return cast(bool | float | None | str, data)

            additional_property = _parse_additional_property(prop_dict)

            additional_properties[prop_name] = additional_property

        variable_values.additional_properties = additional_properties
        return variable_values

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> bool | float | None | str:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: bool | float | None | str) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
