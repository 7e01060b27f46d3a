from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.create_preview_response_200_plan import CreatePreviewResponse200Plan
    from ..models.create_preview_response_200_words import CreatePreviewResponse200Words


T = TypeVar("T", bound="CreatePreviewResponse200")


@_attrs_define
class CreatePreviewResponse200:
    """
    Attributes:
        id (str): The preview: its files are served under /v1/previews/{id}/files/.
        width (int):
        height (int):
        fps (float):
        duration (float): Seconds, as the render will last.
        total_frames (int):
        cached (bool): The same document was prepared for this account a moment ago.
        files_url (str): Base URL of the files the plan names.
        sound (None | str): The name of the mixed sound (AAC in MP4), or null for a silent movie.
        expires_at (datetime.datetime):
        words (CreatePreviewResponse200Words): Word timings of each subtitles element, by its JSON path, in seconds on
            the movie timeline: the synthesised voices (or the transcript) as the captions show them.
        plan (CreatePreviewResponse200Plan): The render plan the player draws (its layers' textures, motion, timings).
            Internal: read by the player of the same Framewright version, not a stable contract.
    """

    id: str
    width: int
    height: int
    fps: float
    duration: float
    total_frames: int
    cached: bool
    files_url: str
    sound: None | str
    expires_at: datetime.datetime
    words: CreatePreviewResponse200Words
    plan: CreatePreviewResponse200Plan

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        width = self.width

        height = self.height

        fps = self.fps

        duration = self.duration

        total_frames = self.total_frames

        cached = self.cached

        files_url = self.files_url

        sound: None | str
        sound = self.sound

        expires_at = self.expires_at.isoformat()

        words = self.words.to_dict()

        plan = self.plan.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "width": width,
                "height": height,
                "fps": fps,
                "duration": duration,
                "total_frames": total_frames,
                "cached": cached,
                "files_url": files_url,
                "sound": sound,
                "expires_at": expires_at,
                "words": words,
                "plan": plan,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_preview_response_200_plan import CreatePreviewResponse200Plan  # noqa: PLC0415
        from ..models.create_preview_response_200_words import CreatePreviewResponse200Words  # noqa: PLC0415

        _fields = dict(src_dict)
        id = _fields.pop("id")

        width = _fields.pop("width")

        height = _fields.pop("height")

        fps = _fields.pop("fps")

        duration = _fields.pop("duration")

        total_frames = _fields.pop("total_frames")

        cached = _fields.pop("cached")

        files_url = _fields.pop("files_url")

        def _parse_sound(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        sound = _parse_sound(_fields.pop("sound"))

        expires_at = datetime.datetime.fromisoformat(_fields.pop("expires_at"))

        words = CreatePreviewResponse200Words.from_dict(_fields.pop("words"))

        plan = CreatePreviewResponse200Plan.from_dict(_fields.pop("plan"))

        create_preview_response_200 = cls(
            id=id,
            width=width,
            height=height,
            fps=fps,
            duration=duration,
            total_frames=total_frames,
            cached=cached,
            files_url=files_url,
            sound=sound,
            expires_at=expires_at,
            words=words,
            plan=plan,
        )

        return create_preview_response_200
