from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.create_script_response_200_meta_constraints import CreateScriptResponse200MetaConstraints
    from ..models.create_script_response_200_meta_usage import CreateScriptResponse200MetaUsage


T = TypeVar("T", bound="CreateScriptResponse200Meta")


@_attrs_define
class CreateScriptResponse200Meta:
    """
    Attributes:
        model (str): Model that wrote the script.
        attempts (int): Drafts requested, repairs included.
        provider_requests (int): HTTP calls to the model, retries included.
        usage (CreateScriptResponse200MetaUsage): Token usage summed over every call.
        generation_ms (int): Wall time of the generation.
        language (str): Requested output language.
        structured_output (bool): Whether the endpoint accepted a JSON schema response format (else plain JSON was
            parsed).
        credits_charged (int):
        constraints (CreateScriptResponse200MetaConstraints):
    """

    model: str
    attempts: int
    provider_requests: int
    usage: CreateScriptResponse200MetaUsage
    generation_ms: int
    language: str
    structured_output: bool
    credits_charged: int
    constraints: CreateScriptResponse200MetaConstraints

    def to_dict(self) -> dict[str, Any]:
        model = self.model

        attempts = self.attempts

        provider_requests = self.provider_requests

        usage = self.usage.to_dict()

        generation_ms = self.generation_ms

        language = self.language

        structured_output = self.structured_output

        credits_charged = self.credits_charged

        constraints = self.constraints.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "model": model,
                "attempts": attempts,
                "providerRequests": provider_requests,
                "usage": usage,
                "generationMs": generation_ms,
                "language": language,
                "structuredOutput": structured_output,
                "creditsCharged": credits_charged,
                "constraints": constraints,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_script_response_200_meta_constraints import CreateScriptResponse200MetaConstraints  # noqa: PLC0415
        from ..models.create_script_response_200_meta_usage import CreateScriptResponse200MetaUsage  # noqa: PLC0415

        _fields = dict(src_dict)
        model = _fields.pop("model")

        attempts = _fields.pop("attempts")

        provider_requests = _fields.pop("providerRequests")

        usage = CreateScriptResponse200MetaUsage.from_dict(_fields.pop("usage"))

        generation_ms = _fields.pop("generationMs")

        language = _fields.pop("language")

        structured_output = _fields.pop("structuredOutput")

        credits_charged = _fields.pop("creditsCharged")

        constraints = CreateScriptResponse200MetaConstraints.from_dict(_fields.pop("constraints"))

        create_script_response_200_meta = cls(
            model=model,
            attempts=attempts,
            provider_requests=provider_requests,
            usage=usage,
            generation_ms=generation_ms,
            language=language,
            structured_output=structured_output,
            credits_charged=credits_charged,
            constraints=constraints,
        )

        return create_script_response_200_meta
