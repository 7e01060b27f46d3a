from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...types import UNSET, Response


def _get_kwargs(
    id: str,
    *,
    expires: int,
    sig: str,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["expires"] = expires

    params["sig"] = sig

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/outputs/{id}".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | ErrorEnvelope:
    if response.status_code == 200:
        response_200 = response.json()
        return response_200

    if response.status_code == 206:
        response_206 = response.json()
        return response_206

    if response.status_code == 302:
        response_302 = cast(Any, None)
        return response_302

    if response.status_code == 400:
        response_400 = ErrorEnvelope.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorEnvelope.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = ErrorEnvelope.from_dict(response.json())

        return response_404

    if response.status_code == 410:
        response_410 = ErrorEnvelope.from_dict(response.json())

        return response_410

    if response.status_code == 416:
        response_416 = cast(Any, None)
        return response_416

    if response.status_code == 429:
        response_429 = ErrorEnvelope.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = ErrorEnvelope.from_dict(response.json())

        return response_500

    response_default = ErrorEnvelope.from_dict(response.json())

    return response_default


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | ErrorEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    expires: int,
    sig: str,
) -> Response[Any | ErrorEnvelope]:
    """Download a render's output (MP4, WebM, MOV, GIF, MP3, WAV, PNG, JPEG, WebP) through its signed
    outputUrl

    Args:
        id (str):
        expires (int):
        sig (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        id=id,
        expires=expires,
        sig=sig,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    expires: int,
    sig: str,
) -> Any | ErrorEnvelope | None:
    """Download a render's output (MP4, WebM, MOV, GIF, MP3, WAV, PNG, JPEG, WebP) through its signed
    outputUrl

    Args:
        id (str):
        expires (int):
        sig (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorEnvelope
    """

    return sync_detailed(
        id=id,
        client=client,
        expires=expires,
        sig=sig,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    expires: int,
    sig: str,
) -> Response[Any | ErrorEnvelope]:
    """Download a render's output (MP4, WebM, MOV, GIF, MP3, WAV, PNG, JPEG, WebP) through its signed
    outputUrl

    Args:
        id (str):
        expires (int):
        sig (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        id=id,
        expires=expires,
        sig=sig,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    expires: int,
    sig: str,
) -> Any | ErrorEnvelope | None:
    """Download a render's output (MP4, WebM, MOV, GIF, MP3, WAV, PNG, JPEG, WebP) through its signed
    outputUrl

    Args:
        id (str):
        expires (int):
        sig (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorEnvelope
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            expires=expires,
            sig=sig,
        )
    ).parsed
