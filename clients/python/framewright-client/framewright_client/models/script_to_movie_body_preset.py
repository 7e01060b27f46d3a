from typing import Literal

ScriptToMovieBodyPreset = Literal["16:9", "1:1", "4:3", "4:5", "9:16"]

SCRIPT_TO_MOVIE_BODY_PRESET_VALUES: set[ScriptToMovieBodyPreset] = {
    "16:9",
    "1:1",
    "4:3",
    "4:5",
    "9:16",
}


def check_script_to_movie_body_preset(value: str) -> ScriptToMovieBodyPreset:
    if value in SCRIPT_TO_MOVIE_BODY_PRESET_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {SCRIPT_TO_MOVIE_BODY_PRESET_VALUES!r}")
