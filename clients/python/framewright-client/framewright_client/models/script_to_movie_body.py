from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.script_to_movie_body_preset import ScriptToMovieBodyPreset, check_script_to_movie_body_preset
from ..models.script_to_movie_body_voice_id import ScriptToMovieBodyVoiceId, check_script_to_movie_body_voice_id
from ..types import UNSET, Unset

T = TypeVar("T", bound="ScriptToMovieBody")


@_attrs_define
class ScriptToMovieBody:
    """
    Attributes:
        preset (ScriptToMovieBodyPreset | Unset): Aspect preset of the movie. Default: 16:9.
        voice_id (ScriptToMovieBodyVoiceId | Unset): Voice of the narration. Default: the offline voice for the
            language, else openai-alloy.
        language (str | Unset): Locale of the narration (en-US, de). Default: derived from the script's language.
    """

    preset: ScriptToMovieBodyPreset | Unset = UNSET
    voice_id: ScriptToMovieBodyVoiceId | Unset = UNSET
    language: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        preset: str | Unset = UNSET
        if not isinstance(self.preset, Unset):
            preset = self.preset

        voice_id: str | Unset = UNSET
        if not isinstance(self.voice_id, Unset):
            voice_id = self.voice_id

        language = self.language

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if preset is not UNSET:
            field_dict["preset"] = preset
        if voice_id is not UNSET:
            field_dict["voiceId"] = voice_id
        if language is not UNSET:
            field_dict["language"] = language

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        _preset = _fields.pop("preset", UNSET)
        preset: ScriptToMovieBodyPreset | Unset
        if isinstance(_preset, Unset):
            preset = UNSET
        else:
            preset = check_script_to_movie_body_preset(_preset)

        _voice_id = _fields.pop("voiceId", UNSET)
        voice_id: ScriptToMovieBodyVoiceId | Unset
        if isinstance(_voice_id, Unset):
            voice_id = UNSET
        else:
            voice_id = check_script_to_movie_body_voice_id(_voice_id)

        language = _fields.pop("language", UNSET)

        script_to_movie_body = cls(
            preset=preset,
            voice_id=voice_id,
            language=language,
        )

        return script_to_movie_body
