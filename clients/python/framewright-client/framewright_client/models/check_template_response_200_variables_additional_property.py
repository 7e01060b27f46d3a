from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.check_template_response_200_variables_additional_property_type import (
    CheckTemplateResponse200VariablesAdditionalPropertyType,
    check_check_template_response_200_variables_additional_property_type,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="CheckTemplateResponse200VariablesAdditionalProperty")


@_attrs_define
class CheckTemplateResponse200VariablesAdditionalProperty:
    """
    Attributes:
        type_ (CheckTemplateResponse200VariablesAdditionalPropertyType):
        default (Any | Unset):
        description (str | Unset):
        options (list[str] | Unset):
    """

    type_: CheckTemplateResponse200VariablesAdditionalPropertyType
    default: Any | Unset = UNSET
    description: str | Unset = UNSET
    options: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_: str = self.type_

        default = self.default

        description = self.description

        options: list[str] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = self.options

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
            }
        )
        if default is not UNSET:
            field_dict["default"] = default
        if description is not UNSET:
            field_dict["description"] = description
        if options is not UNSET:
            field_dict["options"] = options

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        type_ = check_check_template_response_200_variables_additional_property_type(_fields.pop("type"))

        default = _fields.pop("default", UNSET)

        description = _fields.pop("description", UNSET)

        options = cast(list[str], _fields.pop("options", UNSET))

        check_template_response_200_variables_additional_property = cls(
            type_=type_,
            default=default,
            description=description,
            options=options,
        )

        check_template_response_200_variables_additional_property.additional_properties = _fields
        return check_template_response_200_variables_additional_property

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
