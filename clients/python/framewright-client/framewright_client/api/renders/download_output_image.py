from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...models.download_output_image_image import DownloadOutputImageImage
from ...models.error_envelope import ErrorEnvelope
from ...types import UNSET, Response


def _get_kwargs(
    id: str,
    image: DownloadOutputImageImage,
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
        "url": "/v1/outputs/{id}/{image}".format(
            id=quote(str(id), safe=""),
            image=quote(str(image), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | ErrorEnvelope:
    if response.status_code == 200:
        response_200 = response.json()
        return response_200

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
    image: DownloadOutputImageImage,
    *,
    client: AuthenticatedClient | Client,
    expires: int,
    sig: str,
) -> Response[Any | ErrorEnvelope]:
    """Download a render's poster (JPEG) or thumbnail (WebP) through its signed posterUrl or thumbnailUrl

    Args:
        id (str):
        image (DownloadOutputImageImage):
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
        image=image,
        expires=expires,
        sig=sig,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    image: DownloadOutputImageImage,
    *,
    client: AuthenticatedClient | Client,
    expires: int,
    sig: str,
) -> Any | ErrorEnvelope | None:
    """Download a render's poster (JPEG) or thumbnail (WebP) through its signed posterUrl or thumbnailUrl

    Args:
        id (str):
        image (DownloadOutputImageImage):
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
        image=image,
        client=client,
        expires=expires,
        sig=sig,
    ).parsed


async def asyncio_detailed(
    id: str,
    image: DownloadOutputImageImage,
    *,
    client: AuthenticatedClient | Client,
    expires: int,
    sig: str,
) -> Response[Any | ErrorEnvelope]:
    """Download a render's poster (JPEG) or thumbnail (WebP) through its signed posterUrl or thumbnailUrl

    Args:
        id (str):
        image (DownloadOutputImageImage):
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
        image=image,
        expires=expires,
        sig=sig,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    image: DownloadOutputImageImage,
    *,
    client: AuthenticatedClient | Client,
    expires: int,
    sig: str,
) -> Any | ErrorEnvelope | None:
    """Download a render's poster (JPEG) or thumbnail (WebP) through its signed posterUrl or thumbnailUrl

    Args:
        id (str):
        image (DownloadOutputImageImage):
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
            image=image,
            client=client,
            expires=expires,
            sig=sig,
        )
    ).parsed
