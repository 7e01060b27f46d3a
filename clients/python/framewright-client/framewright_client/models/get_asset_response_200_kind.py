from typing import Literal

GetAssetResponse200Kind = Literal["audio", "image", "subtitles", "video"]

GET_ASSET_RESPONSE_200_KIND_VALUES: set[GetAssetResponse200Kind] = {
    "audio",
    "image",
    "subtitles",
    "video",
}


def check_get_asset_response_200_kind(value: str) -> GetAssetResponse200Kind:
    if value in GET_ASSET_RESPONSE_200_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GET_ASSET_RESPONSE_200_KIND_VALUES!r}")
