from typing import Literal

UploadAssetResponse201Kind = Literal["audio", "image", "subtitles", "video"]

UPLOAD_ASSET_RESPONSE_201_KIND_VALUES: set[UploadAssetResponse201Kind] = {
    "audio",
    "image",
    "subtitles",
    "video",
}


def check_upload_asset_response_201_kind(value: str) -> UploadAssetResponse201Kind:
    if value in UPLOAD_ASSET_RESPONSE_201_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {UPLOAD_ASSET_RESPONSE_201_KIND_VALUES!r}")
