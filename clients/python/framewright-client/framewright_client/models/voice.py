from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.voice_engine_type_0 import VoiceEngineType0, check_voice_engine_type_0
from ..models.voice_engine_type_1 import VoiceEngineType1, check_voice_engine_type_1

T = TypeVar("T", bound="Voice")


@_attrs_define
class Voice:
    """
    Attributes:
        id (str): The value for voiceId in a voice element.
        engine (VoiceEngineType0 | VoiceEngineType1):
        language (str): Locale such as en-US, or 'multi' for multilingual voices.
        description (str):
    """

    id: str
    engine: VoiceEngineType0 | VoiceEngineType1
    language: str
    description: str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        engine: str
        if isinstance(self.engine, str):
            engine = self.engine
        else:
            engine = self.engine

        language = self.language

        description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "engine": engine,
                "language": language,
                "description": description,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        id = _fields.pop("id")

        def _parse_engine(data: object) -> VoiceEngineType0 | VoiceEngineType1:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                engine_type_0 = check_voice_engine_type_0(data)

                return engine_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, str):
                raise TypeError()
            engine_type_1 = check_voice_engine_type_1(data)

            return engine_type_1

        engine = _parse_engine(_fields.pop("engine"))

        language = _fields.pop("language")

        description = _fields.pop("description")

        voice = cls(
            id=id,
            engine=engine,
            language=language,
            description=description,
        )

        return voice
