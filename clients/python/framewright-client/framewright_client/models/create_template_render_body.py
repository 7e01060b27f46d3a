from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.variable_values import VariableValues


T = TypeVar("T", bound="CreateTemplateRenderBody")


@_attrs_define
class CreateTemplateRenderBody:
    """
    Attributes:
        variables (VariableValues | Unset): Values of the variables the document declares, keyed by name. Each is
            coerced losslessly to its declared type ("42" is a number, "true" a boolean); null or absent means the declared
            default. A name the document does not declare is a VALIDATION_ERROR at variables.<name>; a value that does not
            fit is VARIABLE_TYPE_MISMATCH at the variable's first reference.
        webhook_url (str | Unset): Absolute http(s) URL notified on completion; paid plans only.
        draft (bool | Unset): Fast low-resolution watermarked draft at half cost.
    """

    variables: VariableValues | Unset = UNSET
    webhook_url: str | Unset = UNSET
    draft: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        variables: dict[str, Any] | Unset = UNSET
        if not isinstance(self.variables, Unset):
            variables = self.variables.to_dict()

        webhook_url = self.webhook_url

        draft = self.draft

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if variables is not UNSET:
            field_dict["variables"] = variables
        if webhook_url is not UNSET:
            field_dict["webhook_url"] = webhook_url
        if draft is not UNSET:
            field_dict["draft"] = draft

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.variable_values import VariableValues  # noqa: PLC0415

        _fields = dict(src_dict)
        _variables = _fields.pop("variables", UNSET)
        variables: VariableValues | Unset
        if isinstance(_variables, Unset):
            variables = UNSET
        else:
            variables = VariableValues.from_dict(_variables)

        webhook_url = _fields.pop("webhook_url", UNSET)

        draft = _fields.pop("draft", UNSET)

        create_template_render_body = cls(
            variables=variables,
            webhook_url=webhook_url,
            draft=draft,
        )

        return create_template_render_body
