from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.update_template_response_200_variables_additional_property import (
        UpdateTemplateResponse200VariablesAdditionalProperty,
    )


T = TypeVar("T", bound="UpdateTemplateResponse200Variables")


@_attrs_define
class UpdateTemplateResponse200Variables:
    """Manifest mirroring body.variables."""

    additional_properties: dict[str, UpdateTemplateResponse200VariablesAdditionalProperty] = _attrs_field(
        init=False, factory=dict
    )

    def to_dict(self) -> dict[str, Any]:

        field_dict: dict[str, Any] = {}
        for prop_name, prop in self.additional_properties.items():
            field_dict[prop_name] = prop.to_dict()

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.update_template_response_200_variables_additional_property import (
            UpdateTemplateResponse200VariablesAdditionalProperty,  # noqa: PLC0415
        )

        _fields = dict(src_dict)
        update_template_response_200_variables = cls()

        additional_properties = {}
        for prop_name, prop_dict in _fields.items():
            additional_property = UpdateTemplateResponse200VariablesAdditionalProperty.from_dict(prop_dict)

            additional_properties[prop_name] = additional_property

        update_template_response_200_variables.additional_properties = additional_properties
        return update_template_response_200_variables

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> UpdateTemplateResponse200VariablesAdditionalProperty:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: UpdateTemplateResponse200VariablesAdditionalProperty) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
