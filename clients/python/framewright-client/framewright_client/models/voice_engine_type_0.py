from typing import Literal

VoiceEngineType0 = Literal["espeak"]

VOICE_ENGINE_TYPE_0_VALUES: set[VoiceEngineType0] = {
    "espeak",
}


def check_voice_engine_type_0(value: str) -> VoiceEngineType0:
    if value in VOICE_ENGINE_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {VOICE_ENGINE_TYPE_0_VALUES!r}")
