from http import HTTPStatus
from typing import Any

import httpx

from ...client import AuthenticatedClient, Client
from ...models.create_preview_body import CreatePreviewBody
from ...models.create_preview_response_200 import CreatePreviewResponse200
from ...models.error_envelope import ErrorEnvelope
from ...types import Response


def _get_kwargs(
    *,
    body: CreatePreviewBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/previews",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CreatePreviewResponse200 | ErrorEnvelope:
    if response.status_code == 200:
        response_200 = CreatePreviewResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ErrorEnvelope.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorEnvelope.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = ErrorEnvelope.from_dict(response.json())

        return response_404

    if response.status_code == 422:
        response_422 = ErrorEnvelope.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = ErrorEnvelope.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = ErrorEnvelope.from_dict(response.json())

        return response_500

    if response.status_code == 502:
        response_502 = ErrorEnvelope.from_dict(response.json())

        return response_502

    if response.status_code == 507:
        response_507 = ErrorEnvelope.from_dict(response.json())

        return response_507

    response_default = ErrorEnvelope.from_dict(response.json())

    return response_default


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[CreatePreviewResponse200 | ErrorEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CreatePreviewBody,
) -> Response[CreatePreviewResponse200 | ErrorEnvelope]:
    """Prepare a document for the browser player

     Runs the render's prepare step (assets, speech with word timings, text, shapes, the sound mix) and
    answers the plan the player draws. Free: no credits are reserved or charged. Cached by content for
    the account; fresh preparations are limited per account per minute (RATE_LIMITED with Retry-After).
    Accepts an API key or a preview token.

    Args:
        body (CreatePreviewBody): Exactly one of `movie` and `template_id`, with the variables to
            resolve it with.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreatePreviewResponse200 | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: CreatePreviewBody,
) -> CreatePreviewResponse200 | ErrorEnvelope | None:
    """Prepare a document for the browser player

     Runs the render's prepare step (assets, speech with word timings, text, shapes, the sound mix) and
    answers the plan the player draws. Free: no credits are reserved or charged. Cached by content for
    the account; fresh preparations are limited per account per minute (RATE_LIMITED with Retry-After).
    Accepts an API key or a preview token.

    Args:
        body (CreatePreviewBody): Exactly one of `movie` and `template_id`, with the variables to
            resolve it with.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreatePreviewResponse200 | ErrorEnvelope
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CreatePreviewBody,
) -> Response[CreatePreviewResponse200 | ErrorEnvelope]:
    """Prepare a document for the browser player

     Runs the render's prepare step (assets, speech with word timings, text, shapes, the sound mix) and
    answers the plan the player draws. Free: no credits are reserved or charged. Cached by content for
    the account; fresh preparations are limited per account per minute (RATE_LIMITED with Retry-After).
    Accepts an API key or a preview token.

    Args:
        body (CreatePreviewBody): Exactly one of `movie` and `template_id`, with the variables to
            resolve it with.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreatePreviewResponse200 | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: CreatePreviewBody,
) -> CreatePreviewResponse200 | ErrorEnvelope | None:
    """Prepare a document for the browser player

     Runs the render's prepare step (assets, speech with word timings, text, shapes, the sound mix) and
    answers the plan the player draws. Free: no credits are reserved or charged. Cached by content for
    the account; fresh preparations are limited per account per minute (RATE_LIMITED with Retry-After).
    Accepts an API key or a preview token.

    Args:
        body (CreatePreviewBody): Exactly one of `movie` and `template_id`, with the variables to
            resolve it with.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreatePreviewResponse200 | ErrorEnvelope
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
