from typing import Literal

VoiceEngineType1 = Literal["openai"]

VOICE_ENGINE_TYPE_1_VALUES: set[VoiceEngineType1] = {
    "openai",
}


def check_voice_engine_type_1(value: str) -> VoiceEngineType1:
    if value in VOICE_ENGINE_TYPE_1_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {VOICE_ENGINE_TYPE_1_VALUES!r}")
