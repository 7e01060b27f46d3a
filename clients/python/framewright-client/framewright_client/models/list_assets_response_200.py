from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.asset_resource import AssetResource


T = TypeVar("T", bound="ListAssetsResponse200")


@_attrs_define
class ListAssetsResponse200:
    """
    Attributes:
        items (list[AssetResource]):
        page (int):
        page_size (int):
        total (int):
        has_more (bool):
    """

    items: list[AssetResource]
    page: int
    page_size: int
    total: int
    has_more: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        page = self.page

        page_size = self.page_size

        total = self.total

        has_more = self.has_more

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "items": items,
                "page": page,
                "pageSize": page_size,
                "total": total,
                "hasMore": has_more,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.asset_resource import AssetResource  # noqa: PLC0415

        _fields = dict(src_dict)
        items = []
        _items = _fields.pop("items")
        for items_item_data in _items:
            items_item = AssetResource.from_dict(items_item_data)

            items.append(items_item)

        page = _fields.pop("page")

        page_size = _fields.pop("pageSize")

        total = _fields.pop("total")

        has_more = _fields.pop("hasMore")

        list_assets_response_200 = cls(
            items=items,
            page=page,
            page_size=page_size,
            total=total,
            has_more=has_more,
        )

        list_assets_response_200.additional_properties = _fields
        return list_assets_response_200

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
