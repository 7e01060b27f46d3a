from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.check_template_response_200_errors_item import CheckTemplateResponse200ErrorsItem
    from ..models.check_template_response_200_variables import CheckTemplateResponse200Variables
    from ..models.check_template_response_200_warnings_item import CheckTemplateResponse200WarningsItem


T = TypeVar("T", bound="CheckTemplateResponse200")


@_attrs_define
class CheckTemplateResponse200:
    """
    Attributes:
        valid (bool): Whether POST /v1/templates (or, with variables, a render) would accept it.
        errors (list[CheckTemplateResponse200ErrorsItem]): Every finding, as the write would answer them.
        warnings (list[CheckTemplateResponse200WarningsItem]):
        variables (CheckTemplateResponse200Variables): Manifest mirroring body.variables.
    """

    valid: bool
    errors: list[CheckTemplateResponse200ErrorsItem]
    warnings: list[CheckTemplateResponse200WarningsItem]
    variables: CheckTemplateResponse200Variables

    def to_dict(self) -> dict[str, Any]:
        valid = self.valid

        errors = []
        for errors_item_data in self.errors:
            errors_item = errors_item_data.to_dict()
            errors.append(errors_item)

        warnings = []
        for warnings_item_data in self.warnings:
            warnings_item = warnings_item_data.to_dict()
            warnings.append(warnings_item)

        variables = self.variables.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "valid": valid,
                "errors": errors,
                "warnings": warnings,
                "variables": variables,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.check_template_response_200_errors_item import CheckTemplateResponse200ErrorsItem  # noqa: PLC0415
        from ..models.check_template_response_200_variables import CheckTemplateResponse200Variables  # noqa: PLC0415
        from ..models.check_template_response_200_warnings_item import CheckTemplateResponse200WarningsItem  # noqa: PLC0415

        _fields = dict(src_dict)
        valid = _fields.pop("valid")

        errors = []
        _errors = _fields.pop("errors")
        for errors_item_data in _errors:
            errors_item = CheckTemplateResponse200ErrorsItem.from_dict(errors_item_data)

            errors.append(errors_item)

        warnings = []
        _warnings = _fields.pop("warnings")
        for warnings_item_data in _warnings:
            warnings_item = CheckTemplateResponse200WarningsItem.from_dict(warnings_item_data)

            warnings.append(warnings_item)

        variables = CheckTemplateResponse200Variables.from_dict(_fields.pop("variables"))

        check_template_response_200 = cls(
            valid=valid,
            errors=errors,
            warnings=warnings,
            variables=variables,
        )

        return check_template_response_200
