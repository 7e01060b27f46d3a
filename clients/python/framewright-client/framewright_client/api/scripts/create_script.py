from http import HTTPStatus
from typing import Any

import httpx

from ...client import AuthenticatedClient, Client
from ...models.create_script_body import CreateScriptBody
from ...models.create_script_response_200 import CreateScriptResponse200
from ...models.create_script_response_201 import CreateScriptResponse201
from ...models.error_envelope import ErrorEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: CreateScriptBody,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["idempotency-key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/scripts",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CreateScriptResponse200 | CreateScriptResponse201 | ErrorEnvelope:
    if response.status_code == 200:
        response_200 = CreateScriptResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = CreateScriptResponse201.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = ErrorEnvelope.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorEnvelope.from_dict(response.json())

        return response_401

    if response.status_code == 402:
        response_402 = ErrorEnvelope.from_dict(response.json())

        return response_402

    if response.status_code == 409:
        response_409 = ErrorEnvelope.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = ErrorEnvelope.from_dict(response.json())

        return response_413

    if response.status_code == 429:
        response_429 = ErrorEnvelope.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = ErrorEnvelope.from_dict(response.json())

        return response_500

    if response.status_code == 502:
        response_502 = ErrorEnvelope.from_dict(response.json())

        return response_502

    response_default = ErrorEnvelope.from_dict(response.json())

    return response_default


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[CreateScriptResponse200 | CreateScriptResponse201 | ErrorEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CreateScriptBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[CreateScriptResponse200 | CreateScriptResponse201 | ErrorEnvelope]:
    """Generate a video script

     Generates a script synchronously (typically tens of seconds). Each draft is checked against every
    set constraint (scene count, words per scene, image prompts, title, description, language, no long
    verbatim runs of sourceMaterial) and re-prompted with its violations, at most 3 drafts; provider
    errors are retried inside a 90 s budget. Costs max(2, ceil(scenes / 4)) credits, charged only on
    success; the balance must cover the largest possible charge (sceneCount, else 14 scenes) before the
    model is called.

    Args:
        idempotency_key (str | Unset): A key of the client's choosing, e.g. a UUID. A key outside
            these bounds is a VALIDATION_ERROR at headers.idempotency-key.
        body (CreateScriptBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateScriptResponse200 | CreateScriptResponse201 | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: CreateScriptBody,
    idempotency_key: str | Unset = UNSET,
) -> CreateScriptResponse200 | CreateScriptResponse201 | ErrorEnvelope | None:
    """Generate a video script

     Generates a script synchronously (typically tens of seconds). Each draft is checked against every
    set constraint (scene count, words per scene, image prompts, title, description, language, no long
    verbatim runs of sourceMaterial) and re-prompted with its violations, at most 3 drafts; provider
    errors are retried inside a 90 s budget. Costs max(2, ceil(scenes / 4)) credits, charged only on
    success; the balance must cover the largest possible charge (sceneCount, else 14 scenes) before the
    model is called.

    Args:
        idempotency_key (str | Unset): A key of the client's choosing, e.g. a UUID. A key outside
            these bounds is a VALIDATION_ERROR at headers.idempotency-key.
        body (CreateScriptBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateScriptResponse200 | CreateScriptResponse201 | ErrorEnvelope
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CreateScriptBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[CreateScriptResponse200 | CreateScriptResponse201 | ErrorEnvelope]:
    """Generate a video script

     Generates a script synchronously (typically tens of seconds). Each draft is checked against every
    set constraint (scene count, words per scene, image prompts, title, description, language, no long
    verbatim runs of sourceMaterial) and re-prompted with its violations, at most 3 drafts; provider
    errors are retried inside a 90 s budget. Costs max(2, ceil(scenes / 4)) credits, charged only on
    success; the balance must cover the largest possible charge (sceneCount, else 14 scenes) before the
    model is called.

    Args:
        idempotency_key (str | Unset): A key of the client's choosing, e.g. a UUID. A key outside
            these bounds is a VALIDATION_ERROR at headers.idempotency-key.
        body (CreateScriptBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateScriptResponse200 | CreateScriptResponse201 | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: CreateScriptBody,
    idempotency_key: str | Unset = UNSET,
) -> CreateScriptResponse200 | CreateScriptResponse201 | ErrorEnvelope | None:
    """Generate a video script

     Generates a script synchronously (typically tens of seconds). Each draft is checked against every
    set constraint (scene count, words per scene, image prompts, title, description, language, no long
    verbatim runs of sourceMaterial) and re-prompted with its violations, at most 3 drafts; provider
    errors are retried inside a 90 s budget. Costs max(2, ceil(scenes / 4)) credits, charged only on
    success; the balance must cover the largest possible charge (sceneCount, else 14 scenes) before the
    model is called.

    Args:
        idempotency_key (str | Unset): A key of the client's choosing, e.g. a UUID. A key outside
            these bounds is a VALIDATION_ERROR at headers.idempotency-key.
        body (CreateScriptBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateScriptResponse200 | CreateScriptResponse201 | ErrorEnvelope
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
