from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CreatePreviewResponse200WordsAdditionalPropertyItem")


@_attrs_define
class CreatePreviewResponse200WordsAdditionalPropertyItem:
    """
    Attributes:
        text (str):
        start (float):
        end (float):
    """

    text: str
    start: float
    end: float

    def to_dict(self) -> dict[str, Any]:
        text = self.text

        start = self.start

        end = self.end

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "text": text,
                "start": start,
                "end": end,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        text = _fields.pop("text")

        start = _fields.pop("start")

        end = _fields.pop("end")

        create_preview_response_200_words_additional_property_item = cls(
            text=text,
            start=start,
            end=end,
        )

        return create_preview_response_200_words_additional_property_item
