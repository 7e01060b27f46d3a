from typing import Literal

ListRendersResponse200ItemsItemFormat = Literal["gif", "jpeg", "mov", "mp3", "mp4", "png", "wav", "webm", "webp"]

LIST_RENDERS_RESPONSE_200_ITEMS_ITEM_FORMAT_VALUES: set[ListRendersResponse200ItemsItemFormat] = {
    "gif",
    "jpeg",
    "mov",
    "mp3",
    "mp4",
    "png",
    "wav",
    "webm",
    "webp",
}


def check_list_renders_response_200_items_item_format(value: str) -> ListRendersResponse200ItemsItemFormat:
    if value in LIST_RENDERS_RESPONSE_200_ITEMS_ITEM_FORMAT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_RENDERS_RESPONSE_200_ITEMS_ITEM_FORMAT_VALUES!r}"
    )
