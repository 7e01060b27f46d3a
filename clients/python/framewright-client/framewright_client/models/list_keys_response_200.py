from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.list_keys_response_200_items_item import ListKeysResponse200ItemsItem


T = TypeVar("T", bound="ListKeysResponse200")


@_attrs_define
class ListKeysResponse200:
    """
    Attributes:
        items (list[ListKeysResponse200ItemsItem]):
        page (int):
        page_size (int):
        total (int):
        has_more (bool):
    """

    items: list[ListKeysResponse200ItemsItem]
    page: int
    page_size: int
    total: int
    has_more: bool

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
        from ..models.list_keys_response_200_items_item import ListKeysResponse200ItemsItem  # noqa: PLC0415

        _fields = dict(src_dict)
        items = []
        _items = _fields.pop("items")
        for items_item_data in _items:
            items_item = ListKeysResponse200ItemsItem.from_dict(items_item_data)

            items.append(items_item)

        page = _fields.pop("page")

        page_size = _fields.pop("pageSize")

        total = _fields.pop("total")

        has_more = _fields.pop("hasMore")

        list_keys_response_200 = cls(
            items=items,
            page=page,
            page_size=page_size,
            total=total,
            has_more=has_more,
        )

        return list_keys_response_200
