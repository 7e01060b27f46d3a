from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="FramewrightMovieDocumentV1ScenesItemElementsItemType3")


@_attrs_define
class FramewrightMovieDocumentV1ScenesItemElementsItemType3:
    """Voiceover: speech synthesised from text. Audio only; it plays for its natural length.

    Attributes:
        id (str): Element id, unique across the document.
        type_ (Literal['voice']):
        text (str): Text to speak.
        voice_id (Literal['espeak-ar-sa'] | Literal['espeak-cs-cz'] | Literal['espeak-da-dk'] | Literal['espeak-de-de']
            | Literal['espeak-el-gr'] | Literal['espeak-en-gb'] | Literal['espeak-en-us'] | Literal['espeak-es-es'] |
            Literal['espeak-fi-fi'] | Literal['espeak-fr-fr'] | Literal['espeak-hi-in'] | Literal['espeak-hu-hu'] |
            Literal['espeak-id-id'] | Literal['espeak-it-it'] | Literal['espeak-ja-jp'] | Literal['espeak-ko-kr'] |
            Literal['espeak-nb-no'] | Literal['espeak-nl-nl'] | Literal['espeak-pl-pl'] | Literal['espeak-pt-br'] |
            Literal['espeak-pt-pt'] | Literal['espeak-ro-ro'] | Literal['espeak-ru-ru'] | Literal['espeak-sv-se'] |
            Literal['espeak-tr-tr'] | Literal['espeak-uk-ua'] | Literal['espeak-zh-cn'] | Literal['openai-alloy'] |
            Literal['openai-echo'] | Literal['openai-fable'] | Literal['openai-nova'] | Literal['openai-onyx'] |
            Literal['openai-shimmer'] | Unset): A voice of the catalogue (`framewright voices`). Default: the espeak voice
            for `language`.
        language (str | Unset): Locale of the text, e.g. en-US or de. Must be one the voice speaks. Default: 'en-US'.
        start (float | Unset): Seconds from the scene start at which the element appears. Must be before the scene ends.
            Default: 0.0.
    """

    id: str
    type_: Literal["voice"]
    text: str
    voice_id: (
        Literal["espeak-ar-sa"]
        | Literal["espeak-cs-cz"]
        | Literal["espeak-da-dk"]
        | Literal["espeak-de-de"]
        | Literal["espeak-el-gr"]
        | Literal["espeak-en-gb"]
        | Literal["espeak-en-us"]
        | Literal["espeak-es-es"]
        | Literal["espeak-fi-fi"]
        | Literal["espeak-fr-fr"]
        | Literal["espeak-hi-in"]
        | Literal["espeak-hu-hu"]
        | Literal["espeak-id-id"]
        | Literal["espeak-it-it"]
        | Literal["espeak-ja-jp"]
        | Literal["espeak-ko-kr"]
        | Literal["espeak-nb-no"]
        | Literal["espeak-nl-nl"]
        | Literal["espeak-pl-pl"]
        | Literal["espeak-pt-br"]
        | Literal["espeak-pt-pt"]
        | Literal["espeak-ro-ro"]
        | Literal["espeak-ru-ru"]
        | Literal["espeak-sv-se"]
        | Literal["espeak-tr-tr"]
        | Literal["espeak-uk-ua"]
        | Literal["espeak-zh-cn"]
        | Literal["openai-alloy"]
        | Literal["openai-echo"]
        | Literal["openai-fable"]
        | Literal["openai-nova"]
        | Literal["openai-onyx"]
        | Literal["openai-shimmer"]
        | Unset
    ) = UNSET
    language: str | Unset = "en-US"
    start: float | Unset = 0.0

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_

        text = self.text

        voice_id: (
            Literal["espeak-ar-sa"]
            | Literal["espeak-cs-cz"]
            | Literal["espeak-da-dk"]
            | Literal["espeak-de-de"]
            | Literal["espeak-el-gr"]
            | Literal["espeak-en-gb"]
            | Literal["espeak-en-us"]
            | Literal["espeak-es-es"]
            | Literal["espeak-fi-fi"]
            | Literal["espeak-fr-fr"]
            | Literal["espeak-hi-in"]
            | Literal["espeak-hu-hu"]
            | Literal["espeak-id-id"]
            | Literal["espeak-it-it"]
            | Literal["espeak-ja-jp"]
            | Literal["espeak-ko-kr"]
            | Literal["espeak-nb-no"]
            | Literal["espeak-nl-nl"]
            | Literal["espeak-pl-pl"]
            | Literal["espeak-pt-br"]
            | Literal["espeak-pt-pt"]
            | Literal["espeak-ro-ro"]
            | Literal["espeak-ru-ru"]
            | Literal["espeak-sv-se"]
            | Literal["espeak-tr-tr"]
            | Literal["espeak-uk-ua"]
            | Literal["espeak-zh-cn"]
            | Literal["openai-alloy"]
            | Literal["openai-echo"]
            | Literal["openai-fable"]
            | Literal["openai-nova"]
            | Literal["openai-onyx"]
            | Literal["openai-shimmer"]
            | Unset
        )
        if isinstance(self.voice_id, Unset):
            voice_id = UNSET
        else:
            voice_id = self.voice_id

        language = self.language

        start = self.start

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "type": type_,
                "text": text,
            }
        )
        if voice_id is not UNSET:
            field_dict["voiceId"] = voice_id
        if language is not UNSET:
            field_dict["language"] = language
        if start is not UNSET:
            field_dict["start"] = start

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        _fields = dict(src_dict)
        id = _fields.pop("id")

        type_ = cast(Literal["voice"], _fields.pop("type"))
        if type_ != "voice":
            raise ValueError(f"type must match const 'voice', got '{type_}'")

        text = _fields.pop("text")

        def _parse_voice_id(
            data: object,
        ) -> (
            Literal["espeak-ar-sa"]
            | Literal["espeak-cs-cz"]
            | Literal["espeak-da-dk"]
            | Literal["espeak-de-de"]
            | Literal["espeak-el-gr"]
            | Literal["espeak-en-gb"]
            | Literal["espeak-en-us"]
            | Literal["espeak-es-es"]
            | Literal["espeak-fi-fi"]
            | Literal["espeak-fr-fr"]
            | Literal["espeak-hi-in"]
            | Literal["espeak-hu-hu"]
            | Literal["espeak-id-id"]
            | Literal["espeak-it-it"]
            | Literal["espeak-ja-jp"]
            | Literal["espeak-ko-kr"]
            | Literal["espeak-nb-no"]
            | Literal["espeak-nl-nl"]
            | Literal["espeak-pl-pl"]
            | Literal["espeak-pt-br"]
            | Literal["espeak-pt-pt"]
            | Literal["espeak-ro-ro"]
            | Literal["espeak-ru-ru"]
            | Literal["espeak-sv-se"]
            | Literal["espeak-tr-tr"]
            | Literal["espeak-uk-ua"]
            | Literal["espeak-zh-cn"]
            | Literal["openai-alloy"]
            | Literal["openai-echo"]
            | Literal["openai-fable"]
            | Literal["openai-nova"]
            | Literal["openai-onyx"]
            | Literal["openai-shimmer"]
            | Unset
        ):
            if isinstance(data, Unset):
                return data
            try:
                if not data == "espeak-en-us":
                    raise TypeError()
                voice_id_type_0 = cast(Literal["espeak-en-us"], data)
                if voice_id_type_0 != "espeak-en-us":
                    raise ValueError(f"voiceId_type_0 must match const 'espeak-en-us', got '{voice_id_type_0}'")
                return voice_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "espeak-en-gb":
                    raise TypeError()
                voice_id_type_1 = cast(Literal["espeak-en-gb"], data)
                if voice_id_type_1 != "espeak-en-gb":
                    raise ValueError(f"voiceId_type_1 must match const 'espeak-en-gb', got '{voice_id_type_1}'")
                return voice_id_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "espeak-de-de":
                    raise TypeError()
                voice_id_type_2 = cast(Literal["espeak-de-de"], data)
                if voice_id_type_2 != "espeak-de-de":
                    raise ValueError(f"voiceId_type_2 must match const 'espeak-de-de', got '{voice_id_type_2}'")
                return voice_id_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "espeak-fr-fr":
                    raise TypeError()
                voice_id_type_3 = cast(Literal["espeak-fr-fr"], data)
                if voice_id_type_3 != "espeak-fr-fr":
                    raise ValueError(f"voiceId_type_3 must match const 'espeak-fr-fr', got '{voice_id_type_3}'")
                return voice_id_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "espeak-es-es":
                    raise TypeError()
                voice_id_type_4 = cast(Literal["espeak-es-es"], data)
                if voice_id_type_4 != "espeak-es-es":
                    raise ValueError(f"voiceId_type_4 must match const 'espeak-es-es', got '{voice_id_type_4}'")
                return voice_id_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "espeak-it-it":
                    raise TypeError()
                voice_id_type_5 = cast(Literal["espeak-it-it"], data)
                if voice_id_type_5 != "espeak-it-it":
                    raise ValueError(f"voiceId_type_5 must match const 'espeak-it-it', got '{voice_id_type_5}'")
                return voice_id_type_5
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "espeak-pt-br":
                    raise TypeError()
                voice_id_type_6 = cast(Literal["espeak-pt-br"], data)
                if voice_id_type_6 != "espeak-pt-br":
                    raise ValueError(f"voiceId_type_6 must match const 'espeak-pt-br', got '{voice_id_type_6}'")
                return voice_id_type_6
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "espeak-pt-pt":
                    raise TypeError()
                voice_id_type_7 = cast(Literal["espeak-pt-pt"], data)
                if voice_id_type_7 != "espeak-pt-pt":
                    raise ValueError(f"voiceId_type_7 must match const 'espeak-pt-pt', got '{voice_id_type_7}'")
                return voice_id_type_7
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "espeak-nl-nl":
                    raise TypeError()
                voice_id_type_8 = cast(Literal["espeak-nl-nl"], data)
                if voice_id_type_8 != "espeak-nl-nl":
                    raise ValueError(f"voiceId_type_8 must match const 'espeak-nl-nl', got '{voice_id_type_8}'")
                return voice_id_type_8
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "espeak-pl-pl":
                    raise TypeError()
                voice_id_type_9 = cast(Literal["espeak-pl-pl"], data)
                if voice_id_type_9 != "espeak-pl-pl":
                    raise ValueError(f"voiceId_type_9 must match const 'espeak-pl-pl', got '{voice_id_type_9}'")
                return voice_id_type_9
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "espeak-sv-se":
                    raise TypeError()
                voice_id_type_10 = cast(Literal["espeak-sv-se"], data)
                if voice_id_type_10 != "espeak-sv-se":
                    raise ValueError(f"voiceId_type_10 must match const 'espeak-sv-se', got '{voice_id_type_10}'")
                return voice_id_type_10
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "espeak-da-dk":
                    raise TypeError()
                voice_id_type_11 = cast(Literal["espeak-da-dk"], data)
                if voice_id_type_11 != "espeak-da-dk":
                    raise ValueError(f"voiceId_type_11 must match const 'espeak-da-dk', got '{voice_id_type_11}'")
                return voice_id_type_11
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "espeak-nb-no":
                    raise TypeError()
                voice_id_type_12 = cast(Literal["espeak-nb-no"], data)
                if voice_id_type_12 != "espeak-nb-no":
                    raise ValueError(f"voiceId_type_12 must match const 'espeak-nb-no', got '{voice_id_type_12}'")
                return voice_id_type_12
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "espeak-fi-fi":
                    raise TypeError()
                voice_id_type_13 = cast(Literal["espeak-fi-fi"], data)
                if voice_id_type_13 != "espeak-fi-fi":
                    raise ValueError(f"voiceId_type_13 must match const 'espeak-fi-fi', got '{voice_id_type_13}'")
                return voice_id_type_13
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "espeak-cs-cz":
                    raise TypeError()
                voice_id_type_14 = cast(Literal["espeak-cs-cz"], data)
                if voice_id_type_14 != "espeak-cs-cz":
                    raise ValueError(f"voiceId_type_14 must match const 'espeak-cs-cz', got '{voice_id_type_14}'")
                return voice_id_type_14
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "espeak-hu-hu":
                    raise TypeError()
                voice_id_type_15 = cast(Literal["espeak-hu-hu"], data)
                if voice_id_type_15 != "espeak-hu-hu":
                    raise ValueError(f"voiceId_type_15 must match const 'espeak-hu-hu', got '{voice_id_type_15}'")
                return voice_id_type_15
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "espeak-ro-ro":
                    raise TypeError()
                voice_id_type_16 = cast(Literal["espeak-ro-ro"], data)
                if voice_id_type_16 != "espeak-ro-ro":
                    raise ValueError(f"voiceId_type_16 must match const 'espeak-ro-ro', got '{voice_id_type_16}'")
                return voice_id_type_16
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "espeak-el-gr":
                    raise TypeError()
                voice_id_type_17 = cast(Literal["espeak-el-gr"], data)
                if voice_id_type_17 != "espeak-el-gr":
                    raise ValueError(f"voiceId_type_17 must match const 'espeak-el-gr', got '{voice_id_type_17}'")
                return voice_id_type_17
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "espeak-tr-tr":
                    raise TypeError()
                voice_id_type_18 = cast(Literal["espeak-tr-tr"], data)
                if voice_id_type_18 != "espeak-tr-tr":
                    raise ValueError(f"voiceId_type_18 must match const 'espeak-tr-tr', got '{voice_id_type_18}'")
                return voice_id_type_18
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "espeak-ru-ru":
                    raise TypeError()
                voice_id_type_19 = cast(Literal["espeak-ru-ru"], data)
                if voice_id_type_19 != "espeak-ru-ru":
                    raise ValueError(f"voiceId_type_19 must match const 'espeak-ru-ru', got '{voice_id_type_19}'")
                return voice_id_type_19
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "espeak-uk-ua":
                    raise TypeError()
                voice_id_type_20 = cast(Literal["espeak-uk-ua"], data)
                if voice_id_type_20 != "espeak-uk-ua":
                    raise ValueError(f"voiceId_type_20 must match const 'espeak-uk-ua', got '{voice_id_type_20}'")
                return voice_id_type_20
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "espeak-id-id":
                    raise TypeError()
                voice_id_type_21 = cast(Literal["espeak-id-id"], data)
                if voice_id_type_21 != "espeak-id-id":
                    raise ValueError(f"voiceId_type_21 must match const 'espeak-id-id', got '{voice_id_type_21}'")
                return voice_id_type_21
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "espeak-hi-in":
                    raise TypeError()
                voice_id_type_22 = cast(Literal["espeak-hi-in"], data)
                if voice_id_type_22 != "espeak-hi-in":
                    raise ValueError(f"voiceId_type_22 must match const 'espeak-hi-in', got '{voice_id_type_22}'")
                return voice_id_type_22
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "espeak-ja-jp":
                    raise TypeError()
                voice_id_type_23 = cast(Literal["espeak-ja-jp"], data)
                if voice_id_type_23 != "espeak-ja-jp":
                    raise ValueError(f"voiceId_type_23 must match const 'espeak-ja-jp', got '{voice_id_type_23}'")
                return voice_id_type_23
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "espeak-ko-kr":
                    raise TypeError()
                voice_id_type_24 = cast(Literal["espeak-ko-kr"], data)
                if voice_id_type_24 != "espeak-ko-kr":
                    raise ValueError(f"voiceId_type_24 must match const 'espeak-ko-kr', got '{voice_id_type_24}'")
                return voice_id_type_24
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "espeak-zh-cn":
                    raise TypeError()
                voice_id_type_25 = cast(Literal["espeak-zh-cn"], data)
                if voice_id_type_25 != "espeak-zh-cn":
                    raise ValueError(f"voiceId_type_25 must match const 'espeak-zh-cn', got '{voice_id_type_25}'")
                return voice_id_type_25
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "espeak-ar-sa":
                    raise TypeError()
                voice_id_type_26 = cast(Literal["espeak-ar-sa"], data)
                if voice_id_type_26 != "espeak-ar-sa":
                    raise ValueError(f"voiceId_type_26 must match const 'espeak-ar-sa', got '{voice_id_type_26}'")
                return voice_id_type_26
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "openai-alloy":
                    raise TypeError()
                voice_id_type_27 = cast(Literal["openai-alloy"], data)
                if voice_id_type_27 != "openai-alloy":
                    raise ValueError(f"voiceId_type_27 must match const 'openai-alloy', got '{voice_id_type_27}'")
                return voice_id_type_27
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "openai-echo":
                    raise TypeError()
                voice_id_type_28 = cast(Literal["openai-echo"], data)
                if voice_id_type_28 != "openai-echo":
                    raise ValueError(f"voiceId_type_28 must match const 'openai-echo', got '{voice_id_type_28}'")
                return voice_id_type_28
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "openai-fable":
                    raise TypeError()
                voice_id_type_29 = cast(Literal["openai-fable"], data)
                if voice_id_type_29 != "openai-fable":
                    raise ValueError(f"voiceId_type_29 must match const 'openai-fable', got '{voice_id_type_29}'")
                return voice_id_type_29
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "openai-onyx":
                    raise TypeError()
                voice_id_type_30 = cast(Literal["openai-onyx"], data)
                if voice_id_type_30 != "openai-onyx":
                    raise ValueError(f"voiceId_type_30 must match const 'openai-onyx', got '{voice_id_type_30}'")
                return voice_id_type_30
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not data == "openai-nova":
                    raise TypeError()
                voice_id_type_31 = cast(Literal["openai-nova"], data)
                if voice_id_type_31 != "openai-nova":
                    raise ValueError(f"voiceId_type_31 must match const 'openai-nova', got '{voice_id_type_31}'")
                return voice_id_type_31
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not data == "openai-shimmer":
                raise TypeError()
            voice_id_type_32 = cast(Literal["openai-shimmer"], data)
            if voice_id_type_32 != "openai-shimmer":
                raise ValueError(f"voiceId_type_32 must match const 'openai-shimmer', got '{voice_id_type_32}'")
            return voice_id_type_32

        voice_id = _parse_voice_id(_fields.pop("voiceId", UNSET))

        language = _fields.pop("language", UNSET)

        start = _fields.pop("start", UNSET)

        framewright_movie_document_v1_scenes_item_elements_item_type_3 = cls(
            id=id,
            type_=type_,
            text=text,
            voice_id=voice_id,
            language=language,
            start=start,
        )

        return framewright_movie_document_v1_scenes_item_elements_item_type_3
