from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.create_render_response_201_format import (
    CreateRenderResponse201Format,
    check_create_render_response_201_format,
)
from ..models.create_render_response_201_status import (
    CreateRenderResponse201Status,
    check_create_render_response_201_status,
)

if TYPE_CHECKING:
    from ..models.create_render_response_201_error_type_0 import CreateRenderResponse201ErrorType0


T = TypeVar("T", bound="CreateRenderResponse201")


@_attrs_define
class CreateRenderResponse201:
    """A render as the API shows it: every field present, explicit nulls (docs/api.md, The render resource).

    Attributes:
        id (str):
        status (CreateRenderResponse201Status):
        progress (int):
        draft (bool):
        watermark (bool):
        format_ (CreateRenderResponse201Format): The movie's output.format (mp4 when it gives none): the output's file
            type, Content-Type and extension.
        output_url (None | str):
        poster_url (None | str): A video render's poster: a JPEG of the frame at output.posterTime (default the first),
            full frame size. Signed like outputUrl, same expiry; null until done, and for stills and audio formats.
        thumbnail_url (None | str): A finished video's or still's thumbnail: a WebP of the poster frame (a still: of the
            image), 320 px on the long side. Signed like outputUrl, same expiry; null until done, and for audio formats.
        expires_at (datetime.datetime | None):
        error (CreateRenderResponse201ErrorType0 | None):
        duration_sec (float | None):
        metered_minutes (float | None):
        fps (int):
        template_id (None | str):
        webhook_url (None | str):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    id: str
    status: CreateRenderResponse201Status
    progress: int
    draft: bool
    watermark: bool
    format_: CreateRenderResponse201Format
    output_url: None | str
    poster_url: None | str
    thumbnail_url: None | str
    expires_at: datetime.datetime | None
    error: CreateRenderResponse201ErrorType0 | None
    duration_sec: float | None
    metered_minutes: float | None
    fps: int
    template_id: None | str
    webhook_url: None | str
    created_at: datetime.datetime
    updated_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        from ..models.create_render_response_201_error_type_0 import CreateRenderResponse201ErrorType0  # noqa: PLC0415

        id = self.id

        status: str = self.status

        progress = self.progress

        draft = self.draft

        watermark = self.watermark

        format_: str = self.format_

        output_url: None | str
        output_url = self.output_url

        poster_url: None | str
        poster_url = self.poster_url

        thumbnail_url: None | str
        thumbnail_url = self.thumbnail_url

        expires_at: None | str
        if isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        error: dict[str, Any] | None
        if isinstance(self.error, CreateRenderResponse201ErrorType0):
            error = self.error.to_dict()
        else:
            error = self.error

        duration_sec: float | None
        duration_sec = self.duration_sec

        metered_minutes: float | None
        metered_minutes = self.metered_minutes

        fps = self.fps

        template_id: None | str
        template_id = self.template_id

        webhook_url: None | str
        webhook_url = self.webhook_url

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "status": status,
                "progress": progress,
                "draft": draft,
                "watermark": watermark,
                "format": format_,
                "outputUrl": output_url,
                "posterUrl": poster_url,
                "thumbnailUrl": thumbnail_url,
                "expiresAt": expires_at,
                "error": error,
                "durationSec": duration_sec,
                "meteredMinutes": metered_minutes,
                "fps": fps,
                "templateId": template_id,
                "webhookUrl": webhook_url,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_render_response_201_error_type_0 import CreateRenderResponse201ErrorType0  # noqa: PLC0415

        _fields = dict(src_dict)
        id = _fields.pop("id")

        status = check_create_render_response_201_status(_fields.pop("status"))

        progress = _fields.pop("progress")

        draft = _fields.pop("draft")

        watermark = _fields.pop("watermark")

        format_ = check_create_render_response_201_format(_fields.pop("format"))

        def _parse_output_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        output_url = _parse_output_url(_fields.pop("outputUrl"))

        def _parse_poster_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        poster_url = _parse_poster_url(_fields.pop("posterUrl"))

        def _parse_thumbnail_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        thumbnail_url = _parse_thumbnail_url(_fields.pop("thumbnailUrl"))

        def _parse_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        expires_at = _parse_expires_at(_fields.pop("expiresAt"))

        def _parse_error(data: object) -> CreateRenderResponse201ErrorType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = CreateRenderResponse201ErrorType0.from_dict(data)

                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CreateRenderResponse201ErrorType0 | None, data)

        error = _parse_error(_fields.pop("error"))

        def _parse_duration_sec(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        duration_sec = _parse_duration_sec(_fields.pop("durationSec"))

        def _parse_metered_minutes(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        metered_minutes = _parse_metered_minutes(_fields.pop("meteredMinutes"))

        fps = _fields.pop("fps")

        def _parse_template_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        template_id = _parse_template_id(_fields.pop("templateId"))

        def _parse_webhook_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        webhook_url = _parse_webhook_url(_fields.pop("webhookUrl"))

        created_at = datetime.datetime.fromisoformat(_fields.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(_fields.pop("updatedAt"))

        create_render_response_201 = cls(
            id=id,
            status=status,
            progress=progress,
            draft=draft,
            watermark=watermark,
            format_=format_,
            output_url=output_url,
            poster_url=poster_url,
            thumbnail_url=thumbnail_url,
            expires_at=expires_at,
            error=error,
            duration_sec=duration_sec,
            metered_minutes=metered_minutes,
            fps=fps,
            template_id=template_id,
            webhook_url=webhook_url,
            created_at=created_at,
            updated_at=updated_at,
        )

        return create_render_response_201
