from typing import Literal

DownloadOutputImageImage = Literal["poster", "thumbnail"]

DOWNLOAD_OUTPUT_IMAGE_IMAGE_VALUES: set[DownloadOutputImageImage] = {
    "poster",
    "thumbnail",
}


def check_download_output_image_image(value: str) -> DownloadOutputImageImage:
    if value in DOWNLOAD_OUTPUT_IMAGE_IMAGE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DOWNLOAD_OUTPUT_IMAGE_IMAGE_VALUES!r}")
