from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="CreateScriptResponse200ScenesItem")


@_attrs_define
class CreateScriptResponse200ScenesItem:
    """
    Attributes:
        index (int): 1-based position in playback order.
        voice_text (str): Narration of the scene.
        image_prompt (None | str): Image prompt with the visual style applied; null when includeImagePrompts was false.
    """

    index: int
    voice_text: str
    image_prompt: None | str

    def to_dict(self) -> dict[str, Any]:
        index = self.index

        voice_text = self.voice_text

        image_prompt: None | str
        image_prompt = self.image_prompt

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "index": index,
                "voiceText": voice_text,
                "imagePrompt": image_prompt,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        index = _fields.pop("index")

        voice_text = _fields.pop("voiceText")

        def _parse_image_prompt(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        image_prompt = _parse_image_prompt(_fields.pop("imagePrompt"))

        create_script_response_200_scenes_item = cls(
            index=index,
            voice_text=voice_text,
            image_prompt=image_prompt,
        )

        return create_script_response_200_scenes_item
