from typing import Literal

AssetResourceKind = Literal["audio", "image", "subtitles", "video"]

ASSET_RESOURCE_KIND_VALUES: set[AssetResourceKind] = {
    "audio",
    "image",
    "subtitles",
    "video",
}


def check_asset_resource_kind(value: str) -> AssetResourceKind:
    if value in ASSET_RESOURCE_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ASSET_RESOURCE_KIND_VALUES!r}")
