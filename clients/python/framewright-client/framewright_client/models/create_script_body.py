from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.create_script_body_words_per_scene import CreateScriptBodyWordsPerScene


T = TypeVar("T", bound="CreateScriptBody")


@_attrs_define
class CreateScriptBody:
    """
    Attributes:
        brief (str): Creative brief.
        source_material (str | Unset): Material to transform; the script covers the same substance in original wording.
        scene_count (int | Unset): Exact number of scenes; the model chooses 10-14 when unset.
        target_duration_sec (float | Unset): Pacing guidance only, not enforced.
        language (str | Unset): Output language; English when unset.
        tone (str | Unset):
        audience (str | Unset):
        structure (str | Unset): Free-text structural instructions.
        visual_style (str | Unset): Applied to every imagePrompt.
        words_per_scene (CreateScriptBodyWordsPerScene | Unset):
        include_image_prompts (bool | Unset): Emit an imagePrompt per scene. Default: True.
        include_title (bool | Unset):  Default: True.
        include_description (bool | Unset):  Default: True.
    """

    brief: str
    source_material: str | Unset = UNSET
    scene_count: int | Unset = UNSET
    target_duration_sec: float | Unset = UNSET
    language: str | Unset = UNSET
    tone: str | Unset = UNSET
    audience: str | Unset = UNSET
    structure: str | Unset = UNSET
    visual_style: str | Unset = UNSET
    words_per_scene: CreateScriptBodyWordsPerScene | Unset = UNSET
    include_image_prompts: bool | Unset = True
    include_title: bool | Unset = True
    include_description: bool | Unset = True

    def to_dict(self) -> dict[str, Any]:
        brief = self.brief

        source_material = self.source_material

        scene_count = self.scene_count

        target_duration_sec = self.target_duration_sec

        language = self.language

        tone = self.tone

        audience = self.audience

        structure = self.structure

        visual_style = self.visual_style

        words_per_scene: dict[str, Any] | Unset = UNSET
        if not isinstance(self.words_per_scene, Unset):
            words_per_scene = self.words_per_scene.to_dict()

        include_image_prompts = self.include_image_prompts

        include_title = self.include_title

        include_description = self.include_description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "brief": brief,
            }
        )
        if source_material is not UNSET:
            field_dict["sourceMaterial"] = source_material
        if scene_count is not UNSET:
            field_dict["sceneCount"] = scene_count
        if target_duration_sec is not UNSET:
            field_dict["targetDurationSec"] = target_duration_sec
        if language is not UNSET:
            field_dict["language"] = language
        if tone is not UNSET:
            field_dict["tone"] = tone
        if audience is not UNSET:
            field_dict["audience"] = audience
        if structure is not UNSET:
            field_dict["structure"] = structure
        if visual_style is not UNSET:
            field_dict["visualStyle"] = visual_style
        if words_per_scene is not UNSET:
            field_dict["wordsPerScene"] = words_per_scene
        if include_image_prompts is not UNSET:
            field_dict["includeImagePrompts"] = include_image_prompts
        if include_title is not UNSET:
            field_dict["includeTitle"] = include_title
        if include_description is not UNSET:
            field_dict["includeDescription"] = include_description

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_script_body_words_per_scene import CreateScriptBodyWordsPerScene  # noqa: PLC0415

        _fields = dict(src_dict)
        brief = _fields.pop("brief")

        source_material = _fields.pop("sourceMaterial", UNSET)

        scene_count = _fields.pop("sceneCount", UNSET)

        target_duration_sec = _fields.pop("targetDurationSec", UNSET)

        language = _fields.pop("language", UNSET)

        tone = _fields.pop("tone", UNSET)

        audience = _fields.pop("audience", UNSET)

        structure = _fields.pop("structure", UNSET)

        visual_style = _fields.pop("visualStyle", UNSET)

        _words_per_scene = _fields.pop("wordsPerScene", UNSET)
        words_per_scene: CreateScriptBodyWordsPerScene | Unset
        if isinstance(_words_per_scene, Unset):
            words_per_scene = UNSET
        else:
            words_per_scene = CreateScriptBodyWordsPerScene.from_dict(_words_per_scene)

        include_image_prompts = _fields.pop("includeImagePrompts", UNSET)

        include_title = _fields.pop("includeTitle", UNSET)

        include_description = _fields.pop("includeDescription", UNSET)

        create_script_body = cls(
            brief=brief,
            source_material=source_material,
            scene_count=scene_count,
            target_duration_sec=target_duration_sec,
            language=language,
            tone=tone,
            audience=audience,
            structure=structure,
            visual_style=visual_style,
            words_per_scene=words_per_scene,
            include_image_prompts=include_image_prompts,
            include_title=include_title,
            include_description=include_description,
        )

        return create_script_body
