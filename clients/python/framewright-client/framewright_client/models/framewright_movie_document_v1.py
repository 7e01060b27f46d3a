from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.framewright_movie_document_v1_loudness_type_1 import FramewrightMovieDocumentV1LoudnessType1
    from ..models.framewright_movie_document_v1_output import FramewrightMovieDocumentV1Output
    from ..models.framewright_movie_document_v1_scenes_item import FramewrightMovieDocumentV1ScenesItem
    from ..models.framewright_movie_document_v1_soundtrack import FramewrightMovieDocumentV1Soundtrack
    from ..models.framewright_movie_document_v1_variables import FramewrightMovieDocumentV1Variables


T = TypeVar("T", bound="FramewrightMovieDocumentV1")


@_attrs_define
class FramewrightMovieDocumentV1:
    """Structure of a movie document. Some rules are beyond JSON Schema and are checked by the service: unique scene and
    element ids, preset or width+height, "voice" scenes need a voice element, elements end within their scene, variable
    defaults match their type, a text element with autoFit needs maxHeight or maxLines and a minFontSize at most its
    fontSize, subtitles take backgroundColor or background but not both. {{name}} placeholders are resolved before this
    schema applies.

        Attributes:
            schema (Literal['v1']): Schema version tag.
            scenes (list[FramewrightMovieDocumentV1ScenesItem]): Scenes in playback order.
            preset (Literal['16:9'] | Literal['1:1'] | Literal['4:3'] | Literal['4:5'] | Literal['9:16'] | Unset): Aspect
                ratio; use with resolution.
            resolution (Literal['1080p'] | Literal['1440p'] | Literal['2160p'] | Literal['480p'] | Literal['720p'] | Unset):
                Short side of the frame in pixels, with preset. Default: '1080p'.
            width (int | Unset): Frame width in pixels (even), with height, instead of preset.
            height (int | Unset): Frame height in pixels (even), with width, instead of preset.
            fps (int | Unset): Frames per second. Default: 30.
            draft (bool | Unset): Half-resolution, watermarked draft at half the credit cost. Default: False.
            quality (Literal['balanced'] | Literal['fast'] | Literal['small'] | Unset): Encoding trade-off. balanced: about
                the bytes of x264 veryfast at the same SSIM, at most 10% slower than fast. fast: the quickest encode, files
                about 4x larger. small: the smallest files, encoding about twice as long. Default: 'balanced'.
            soundtrack (FramewrightMovieDocumentV1Soundtrack | Unset): Music under the whole movie, across scenes, lowered
                automatically under voiceover.
            loudness (bool | FramewrightMovieDocumentV1LoudnessType1 | Unset): Loudness normalisation of the final mix: on
                by default (-14 LUFS, true peak at most -1 dBTP); an object sets the target or the ceiling; false leaves the mix
                as mixed. A movie without sound has nothing to normalise.
            output (FramewrightMovieDocumentV1Output | Unset): What the render makes: the file format, and for a still the
                moment it shows.
            variables (FramewrightMovieDocumentV1Variables | Unset): Variables referenced as {{name}} in any string value.
    """

    schema: Literal["v1"]
    scenes: list[FramewrightMovieDocumentV1ScenesItem]
    preset: Literal["16:9"] | Literal["1:1"] | Literal["4:3"] | Literal["4:5"] | Literal["9:16"] | Unset = UNSET
    resolution: Literal["1080p"] | Literal["1440p"] | Literal["2160p"] | Literal["480p"] | Literal["720p"] | Unset = (
        "1080p"
    )
    width: int | Unset = UNSET
    height: int | Unset = UNSET
    fps: int | Unset = 30
    draft: bool | Unset = False
    quality: Literal["balanced"] | Literal["fast"] | Literal["small"] | Unset = "balanced"
    soundtrack: FramewrightMovieDocumentV1Soundtrack | Unset = UNSET
    loudness: bool | FramewrightMovieDocumentV1LoudnessType1 | Unset = UNSET
    output: FramewrightMovieDocumentV1Output | Unset = UNSET
    variables: FramewrightMovieDocumentV1Variables | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.framewright_movie_document_v1_loudness_type_1 import FramewrightMovieDocumentV1LoudnessType1  # noqa: PLC0415

        schema = self.schema

        scenes = []
        for scenes_item_data in self.scenes:
            scenes_item = scenes_item_data.to_dict()
            scenes.append(scenes_item)

        preset: Literal["16:9"] | Literal["1:1"] | Literal["4:3"] | Literal["4:5"] | Literal["9:16"] | Unset
        if isinstance(self.preset, Unset):
            preset = UNSET
        else:
            preset = self.preset

        resolution: Literal["1080p"] | Literal["1440p"] | Literal["2160p"] | Literal["480p"] | Literal["720p"] | Unset
        if isinstance(self.resolution, Unset):
            resolution = UNSET
        else:
            resolution = self.resolution

        width = self.width

        height = self.height

        fps = self.fps

        draft = self.draft

        quality: Literal["balanced"] | Literal["fast"] | Literal["small"] | Unset
        if isinstance(self.quality, Unset):
            quality = UNSET
        else:
            quality = self.quality

        soundtrack: dict[str, Any] | Unset = UNSET
        if not isinstance(self.soundtrack, Unset):
            soundtrack = self.soundtrack.to_dict()

        loudness: bool | dict[str, Any] | Unset
        if isinstance(self.loudness, Unset):
            loudness = UNSET
        elif isinstance(self.loudness, FramewrightMovieDocumentV1LoudnessType1):
            loudness = self.loudness.to_dict()
        else:
            loudness = self.loudness

        output: dict[str, Any] | Unset = UNSET
        if not isinstance(self.output, Unset):
            output = self.output.to_dict()

        variables: dict[str, Any] | Unset = UNSET
        if not isinstance(self.variables, Unset):
            variables = self.variables.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "schema": schema,
                "scenes": scenes,
            }
        )
        if preset is not UNSET:
            field_dict["preset"] = preset
        if resolution is not UNSET:
            field_dict["resolution"] = resolution
        if width is not UNSET:
            field_dict["width"] = width
        if height is not UNSET:
            field_dict["height"] = height
        if fps is not UNSET:
            field_dict["fps"] = fps
        if draft is not UNSET:
            field_dict["draft"] = draft
        if quality is not UNSET:
            field_dict["quality"] = quality
        if soundtrack is not UNSET:
            field_dict["soundtrack"] = soundtrack
        if loudness is not UNSET:
            field_dict["loudness"] = loudness
        if output is not UNSET:
            field_dict["output"] = output
        if variables is not UNSET:
            field_dict["variables"] = variables

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.framewright_movie_document_v1_loudness_type_1 import FramewrightMovieDocumentV1LoudnessType1  # noqa: PLC0415
        from ..models.framewright_movie_document_v1_output import FramewrightMovieDocumentV1Output  # noqa: PLC0415
        from ..models.framewright_movie_document_v1_scenes_item import FramewrightMovieDocumentV1ScenesItem  # noqa: PLC0415
        from ..models.framewright_movie_document_v1_soundtrack import FramewrightMovieDocumentV1Soundtrack  # noqa: PLC0415
        from ..models.framewright_movie_document_v1_variables import FramewrightMovieDocumentV1Variables  # noqa: PLC0415

        _fields = dict(src_dict)
        schema = cast(Literal["v1"], _fields.pop("schema"))
        if schema != "v1":
            raise ValueError(f"schema must match const 'v1', got '{schema}'")

        scenes = []
        _scenes = _fields.pop("scenes")
        for scenes_item_data in _scenes:
            scenes_item = FramewrightMovieDocumentV1ScenesItem.from_dict(scenes_item_data)

            scenes.append(scenes_item)

        def _parse_preset(
            data: object,
        ) -> Literal["16:9"] | Literal["1:1"] | Literal["4:3"] | Literal["4:5"] | Literal["9:16"] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not data == "16:9":
                    raise TypeError()
                preset_type_0 = cast(Literal["16:9"], data)
                if preset_type_0 != "16:9":
                    raise ValueError(f"preset_type_0 must match const '16:9', got '{preset_type_0}'")
                return preset_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "9:16":
                    raise TypeError()
                preset_type_1 = cast(Literal["9:16"], data)
                if preset_type_1 != "9:16":
                    raise ValueError(f"preset_type_1 must match const '9:16', got '{preset_type_1}'")
                return preset_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "1:1":
                    raise TypeError()
                preset_type_2 = cast(Literal["1:1"], data)
                if preset_type_2 != "1:1":
                    raise ValueError(f"preset_type_2 must match const '1:1', got '{preset_type_2}'")
                return preset_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "4:5":
                    raise TypeError()
                preset_type_3 = cast(Literal["4:5"], data)
                if preset_type_3 != "4:5":
                    raise ValueError(f"preset_type_3 must match const '4:5', got '{preset_type_3}'")
                return preset_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not data == "4:3":
                raise TypeError()
            preset_type_4 = cast(Literal["4:3"], data)
            if preset_type_4 != "4:3":
                raise ValueError(f"preset_type_4 must match const '4:3', got '{preset_type_4}'")
            return preset_type_4

        preset = _parse_preset(_fields.pop("preset", UNSET))

        def _parse_resolution(
            data: object,
        ) -> Literal["1080p"] | Literal["1440p"] | Literal["2160p"] | Literal["480p"] | Literal["720p"] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not data == "480p":
                    raise TypeError()
                resolution_type_0 = cast(Literal["480p"], data)
                if resolution_type_0 != "480p":
                    raise ValueError(f"resolution_type_0 must match const '480p', got '{resolution_type_0}'")
                return resolution_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "720p":
                    raise TypeError()
                resolution_type_1 = cast(Literal["720p"], data)
                if resolution_type_1 != "720p":
                    raise ValueError(f"resolution_type_1 must match const '720p', got '{resolution_type_1}'")
                return resolution_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "1080p":
                    raise TypeError()
                resolution_type_2 = cast(Literal["1080p"], data)
                if resolution_type_2 != "1080p":
                    raise ValueError(f"resolution_type_2 must match const '1080p', got '{resolution_type_2}'")
                return resolution_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "1440p":
                    raise TypeError()
                resolution_type_3 = cast(Literal["1440p"], data)
                if resolution_type_3 != "1440p":
                    raise ValueError(f"resolution_type_3 must match const '1440p', got '{resolution_type_3}'")
                return resolution_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not data == "2160p":
                raise TypeError()
            resolution_type_4 = cast(Literal["2160p"], data)
            if resolution_type_4 != "2160p":
                raise ValueError(f"resolution_type_4 must match const '2160p', got '{resolution_type_4}'")
            return resolution_type_4

        resolution = _parse_resolution(_fields.pop("resolution", UNSET))

        width = _fields.pop("width", UNSET)

        height = _fields.pop("height", UNSET)

        fps = _fields.pop("fps", UNSET)

        draft = _fields.pop("draft", UNSET)

        def _parse_quality(data: object) -> Literal["balanced"] | Literal["fast"] | Literal["small"] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not data == "fast":
                    raise TypeError()
                quality_type_0 = cast(Literal["fast"], data)
                if quality_type_0 != "fast":
                    raise ValueError(f"quality_type_0 must match const 'fast', got '{quality_type_0}'")
                return quality_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "balanced":
                    raise TypeError()
                quality_type_1 = cast(Literal["balanced"], data)
                if quality_type_1 != "balanced":
                    raise ValueError(f"quality_type_1 must match const 'balanced', got '{quality_type_1}'")
                return quality_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not data == "small":
                raise TypeError()
            quality_type_2 = cast(Literal["small"], data)
            if quality_type_2 != "small":
                raise ValueError(f"quality_type_2 must match const 'small', got '{quality_type_2}'")
            return quality_type_2

        quality = _parse_quality(_fields.pop("quality", UNSET))

        _soundtrack = _fields.pop("soundtrack", UNSET)
        soundtrack: FramewrightMovieDocumentV1Soundtrack | Unset
        if isinstance(_soundtrack, Unset):
            soundtrack = UNSET
        else:
            soundtrack = FramewrightMovieDocumentV1Soundtrack.from_dict(_soundtrack)

        def _parse_loudness(data: object) -> bool | FramewrightMovieDocumentV1LoudnessType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                loudness_type_1 = FramewrightMovieDocumentV1LoudnessType1.from_dict(data)

                return loudness_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(bool | FramewrightMovieDocumentV1LoudnessType1 | Unset, data)

        loudness = _parse_loudness(_fields.pop("loudness", UNSET))

        _output = _fields.pop("output", UNSET)
        output: FramewrightMovieDocumentV1Output | Unset
        if isinstance(_output, Unset):
            output = UNSET
        else:
            output = FramewrightMovieDocumentV1Output.from_dict(_output)

        _variables = _fields.pop("variables", UNSET)
        variables: FramewrightMovieDocumentV1Variables | Unset
        if isinstance(_variables, Unset):
            variables = UNSET
        else:
            variables = FramewrightMovieDocumentV1Variables.from_dict(_variables)

        framewright_movie_document_v1 = cls(
            schema=schema,
            scenes=scenes,
            preset=preset,
            resolution=resolution,
            width=width,
            height=height,
            fps=fps,
            draft=draft,
            quality=quality,
            soundtrack=soundtrack,
            loudness=loudness,
            output=output,
            variables=variables,
        )

        return framewright_movie_document_v1
