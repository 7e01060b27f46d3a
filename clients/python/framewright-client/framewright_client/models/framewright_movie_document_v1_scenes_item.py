from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_0 import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType0,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_1 import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType1,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_2 import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType2,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_3 import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType3,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_4 import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType4,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_5 import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType5,
    )
    from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6 import (
        FramewrightMovieDocumentV1ScenesItemElementsItemType6,
    )
    from ..models.framewright_movie_document_v1_scenes_item_transition import (
        FramewrightMovieDocumentV1ScenesItemTransition,
    )


T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItem")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItem:
    """
    Attributes:
        id (str): Scene id, unique among scenes.
        duration (float | Literal['video'] | Literal['voice']): Seconds (0 < d <= 3600); "voice": as long as the scene's
            voiceover plus a short tail; "video": as long as its video clips play.
        elements (list[FramewrightMovieDocumentV1ScenesItemElementsItemType0 |
            FramewrightMovieDocumentV1ScenesItemElementsItemType1 | FramewrightMovieDocumentV1ScenesItemElementsItemType2 |
            FramewrightMovieDocumentV1ScenesItemElementsItemType3 | FramewrightMovieDocumentV1ScenesItemElementsItemType4 |
            FramewrightMovieDocumentV1ScenesItemElementsItemType5 | FramewrightMovieDocumentV1ScenesItemElementsItemType6]):
            Elements, drawn in order (later ones on top).
        background (str | Unset): Background colour of the scene. Default: '#000000'.
        transition (FramewrightMovieDocumentV1ScenesItemTransition | Unset): How this scene replaces the previous one.
            The two scenes overlap by the duration.
    """

    id: str
    duration: float | Literal["video"] | Literal["voice"]
    elements: list[
        FramewrightMovieDocumentV1ScenesItemElementsItemType0
        | FramewrightMovieDocumentV1ScenesItemElementsItemType1
        | FramewrightMovieDocumentV1ScenesItemElementsItemType2
        | FramewrightMovieDocumentV1ScenesItemElementsItemType3
        | FramewrightMovieDocumentV1ScenesItemElementsItemType4
        | FramewrightMovieDocumentV1ScenesItemElementsItemType5
        | FramewrightMovieDocumentV1ScenesItemElementsItemType6
    ]
    background: str | Unset = "#000000"
    transition: FramewrightMovieDocumentV1ScenesItemTransition | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_0 import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType0,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_1 import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType1,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_2 import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType2,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_3 import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType3,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_4 import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType4,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_5 import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType5,  # noqa: PLC0415
        )

        id = self.id

        duration: float | Literal["video"] | Literal["voice"]
        duration = self.duration

        elements = []
        for elements_item_data in self.elements:
            elements_item: dict[str, Any]
            if isinstance(elements_item_data, FramewrightMovieDocumentV1ScenesItemElementsItemType0):
                elements_item = elements_item_data.to_dict()
            elif isinstance(elements_item_data, FramewrightMovieDocumentV1ScenesItemElementsItemType1):
                elements_item = elements_item_data.to_dict()
            elif isinstance(elements_item_data, FramewrightMovieDocumentV1ScenesItemElementsItemType2):
                elements_item = elements_item_data.to_dict()
            elif isinstance(elements_item_data, FramewrightMovieDocumentV1ScenesItemElementsItemType3):
                elements_item = elements_item_data.to_dict()
            elif isinstance(elements_item_data, FramewrightMovieDocumentV1ScenesItemElementsItemType4):
                elements_item = elements_item_data.to_dict()
            elif isinstance(elements_item_data, FramewrightMovieDocumentV1ScenesItemElementsItemType5):
                elements_item = elements_item_data.to_dict()
            else:
                elements_item = elements_item_data.to_dict()

            elements.append(elements_item)

        background = self.background

        transition: dict[str, Any] | Unset = UNSET
        if not isinstance(self.transition, Unset):
            transition = self.transition.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "duration": duration,
                "elements": elements,
            }
        )
        if background is not UNSET:
            field_dict["background"] = background
        if transition is not UNSET:
            field_dict["transition"] = transition

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_0 import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType0,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_1 import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType1,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_2 import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType2,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_3 import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType3,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_4 import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType4,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_5 import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType5,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_elements_item_type_6 import (
            FramewrightMovieDocumentV1ScenesItemElementsItemType6,  # noqa: PLC0415
        )
        from ..models.framewright_movie_document_v1_scenes_item_transition import (
            FramewrightMovieDocumentV1ScenesItemTransition,  # noqa: PLC0415
        )

        _fields = dict(src_dict)
        id = _fields.pop("id")

        def _parse_duration(data: object) -> float | Literal["video"] | Literal["voice"]:
            try:
                if not data == "voice":
                    raise TypeError()
                duration_type_1_type_0 = cast(Literal["voice"], data)
                if duration_type_1_type_0 != "voice":
                    raise ValueError(f"duration_type_1_type_0 must match const 'voice', got '{duration_type_1_type_0}'")
                return duration_type_1_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "video":
                    raise TypeError()
                duration_type_1_type_1 = cast(Literal["video"], data)
                if duration_type_1_type_1 != "video":
                    raise ValueError(f"duration_type_1_type_1 must match const 'video', got '{duration_type_1_type_1}'")
                return duration_type_1_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(float | Literal["video"] | Literal["voice"], data)

        duration = _parse_duration(_fields.pop("duration"))

        elements = []
        _elements = _fields.pop("elements")
        for elements_item_data in _elements:

            def _parse_elements_item(
                data: object,
            ) -> (
                FramewrightMovieDocumentV1ScenesItemElementsItemType0
                | FramewrightMovieDocumentV1ScenesItemElementsItemType1
                | FramewrightMovieDocumentV1ScenesItemElementsItemType2
                | FramewrightMovieDocumentV1ScenesItemElementsItemType3
                | FramewrightMovieDocumentV1ScenesItemElementsItemType4
                | FramewrightMovieDocumentV1ScenesItemElementsItemType5
                | FramewrightMovieDocumentV1ScenesItemElementsItemType6
            ):
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    elements_item_type_0 = FramewrightMovieDocumentV1ScenesItemElementsItemType0.from_dict(data)

                    return elements_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    elements_item_type_1 = FramewrightMovieDocumentV1ScenesItemElementsItemType1.from_dict(data)

                    return elements_item_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    elements_item_type_2 = FramewrightMovieDocumentV1ScenesItemElementsItemType2.from_dict(data)

                    return elements_item_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    elements_item_type_3 = FramewrightMovieDocumentV1ScenesItemElementsItemType3.from_dict(data)

                    return elements_item_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    elements_item_type_4 = FramewrightMovieDocumentV1ScenesItemElementsItemType4.from_dict(data)

                    return elements_item_type_4
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    elements_item_type_5 = FramewrightMovieDocumentV1ScenesItemElementsItemType5.from_dict(data)

                    return elements_item_type_5
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                elements_item_type_6 = FramewrightMovieDocumentV1ScenesItemElementsItemType6.from_dict(data)

                return elements_item_type_6

            elements_item = _parse_elements_item(elements_item_data)

            elements.append(elements_item)

        background = _fields.pop("background", UNSET)

        _transition = _fields.pop("transition", UNSET)
        transition: FramewrightMovieDocumentV1ScenesItemTransition | Unset
        if isinstance(_transition, Unset):
            transition = UNSET
        else:
            transition = FramewrightMovieDocumentV1ScenesItemTransition.from_dict(_transition)

        framewright_movie_document_v1_scenes_item = cls(
            id=id,
            duration=duration,
            elements=elements,
            background=background,
            transition=transition,
        )

        return framewright_movie_document_v1_scenes_item
