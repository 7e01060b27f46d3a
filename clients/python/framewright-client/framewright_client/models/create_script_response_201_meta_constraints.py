from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.create_script_response_201_meta_constraints_scene_count import (
        CreateScriptResponse201MetaConstraintsSceneCount,
    )
    from ..models.create_script_response_201_meta_constraints_words_per_scene_type_0 import (
        CreateScriptResponse201MetaConstraintsWordsPerSceneType0,
    )


T = TypeVar("T", bound="CreateScriptResponse201MetaConstraints")


@_attrs_define
class CreateScriptResponse201MetaConstraints:
    """
    Attributes:
        scene_count (CreateScriptResponse201MetaConstraintsSceneCount): Allowed scene count: min = max = sceneCount when
            set, else 10-14.
        words_per_scene (CreateScriptResponse201MetaConstraintsWordsPerSceneType0 | None):
        image_prompts (bool):
        visual_style (None | str):
        title (bool):
        description (bool):
        language (str):
        max_verbatim_words (int | None): Longest run of consecutive sourceMaterial words a draft may repeat; null
            without sourceMaterial.
    """

    scene_count: CreateScriptResponse201MetaConstraintsSceneCount
    words_per_scene: CreateScriptResponse201MetaConstraintsWordsPerSceneType0 | None
    image_prompts: bool
    visual_style: None | str
    title: bool
    description: bool
    language: str
    max_verbatim_words: int | None

    def to_dict(self) -> dict[str, Any]:
        from ..models.create_script_response_201_meta_constraints_words_per_scene_type_0 import (
            CreateScriptResponse201MetaConstraintsWordsPerSceneType0,  # noqa: PLC0415
        )

        scene_count = self.scene_count.to_dict()

        words_per_scene: dict[str, Any] | None
        if isinstance(self.words_per_scene, CreateScriptResponse201MetaConstraintsWordsPerSceneType0):
            words_per_scene = self.words_per_scene.to_dict()
        else:
            words_per_scene = self.words_per_scene

        image_prompts = self.image_prompts

        visual_style: None | str
        visual_style = self.visual_style

        title = self.title

        description = self.description

        language = self.language

        max_verbatim_words: int | None
        max_verbatim_words = self.max_verbatim_words

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "sceneCount": scene_count,
                "wordsPerScene": words_per_scene,
                "imagePrompts": image_prompts,
                "visualStyle": visual_style,
                "title": title,
                "description": description,
                "language": language,
                "maxVerbatimWords": max_verbatim_words,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_script_response_201_meta_constraints_scene_count import (
            CreateScriptResponse201MetaConstraintsSceneCount,  # noqa: PLC0415
        )
        from ..models.create_script_response_201_meta_constraints_words_per_scene_type_0 import (
            CreateScriptResponse201MetaConstraintsWordsPerSceneType0,  # noqa: PLC0415
        )

        _fields = dict(src_dict)
        scene_count = CreateScriptResponse201MetaConstraintsSceneCount.from_dict(_fields.pop("sceneCount"))

        def _parse_words_per_scene(data: object) -> CreateScriptResponse201MetaConstraintsWordsPerSceneType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                words_per_scene_type_0 = CreateScriptResponse201MetaConstraintsWordsPerSceneType0.from_dict(data)

                return words_per_scene_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CreateScriptResponse201MetaConstraintsWordsPerSceneType0 | None, data)

        words_per_scene = _parse_words_per_scene(_fields.pop("wordsPerScene"))

        image_prompts = _fields.pop("imagePrompts")

        def _parse_visual_style(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        visual_style = _parse_visual_style(_fields.pop("visualStyle"))

        title = _fields.pop("title")

        description = _fields.pop("description")

        language = _fields.pop("language")

        def _parse_max_verbatim_words(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        max_verbatim_words = _parse_max_verbatim_words(_fields.pop("maxVerbatimWords"))

        create_script_response_201_meta_constraints = cls(
            scene_count=scene_count,
            words_per_scene=words_per_scene,
            image_prompts=image_prompts,
            visual_style=visual_style,
            title=title,
            description=description,
            language=language,
            max_verbatim_words=max_verbatim_words,
        )

        return create_script_response_201_meta_constraints
