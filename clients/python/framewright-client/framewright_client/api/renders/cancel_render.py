from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...models.cancel_render_response_200 import CancelRenderResponse200
from ...models.error_envelope import ErrorEnvelope
from ...types import Response


def _get_kwargs(
    id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/renders/{id}/cancel".format(
            id=quote(str(id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CancelRenderResponse200 | ErrorEnvelope:
    if response.status_code == 200:
        response_200 = CancelRenderResponse200.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = ErrorEnvelope.from_dict(response.json())

        return response_409

    if response.status_code == 429:
        response_429 = ErrorEnvelope.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = ErrorEnvelope.from_dict(response.json())

        return response_500

    response_default = ErrorEnvelope.from_dict(response.json())

    return response_default


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[CancelRenderResponse200 | ErrorEnvelope]:
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
) -> Response[CancelRenderResponse200 | ErrorEnvelope]:
    """Cancel a render

     A queued, preparing or rendering render ends `failed` with `error.code` RENDER_CANCELLED: nothing is
    charged, its reserved credits are released, `render.failed` goes to its webhook, and its worker (or
    its Render and Jobs in a cluster) is stopped. Answers the render as it now is. Cancelling a
    cancelled render answers it unchanged; any other finished render is RENDER_NOT_CANCELLABLE.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CancelRenderResponse200 | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
) -> CancelRenderResponse200 | ErrorEnvelope | None:
    """Cancel a render

     A queued, preparing or rendering render ends `failed` with `error.code` RENDER_CANCELLED: nothing is
    charged, its reserved credits are released, `render.failed` goes to its webhook, and its worker (or
    its Render and Jobs in a cluster) is stopped. Answers the render as it now is. Cancelling a
    cancelled render answers it unchanged; any other finished render is RENDER_NOT_CANCELLABLE.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CancelRenderResponse200 | ErrorEnvelope
    """

    return sync_detailed(
        id=id,
        client=client,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[CancelRenderResponse200 | ErrorEnvelope]:
    """Cancel a render

     A queued, preparing or rendering render ends `failed` with `error.code` RENDER_CANCELLED: nothing is
    charged, its reserved credits are released, `render.failed` goes to its webhook, and its worker (or
    its Render and Jobs in a cluster) is stopped. Answers the render as it now is. Cancelling a
    cancelled render answers it unchanged; any other finished render is RENDER_NOT_CANCELLABLE.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CancelRenderResponse200 | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
) -> CancelRenderResponse200 | ErrorEnvelope | None:
    """Cancel a render

     A queued, preparing or rendering render ends `failed` with `error.code` RENDER_CANCELLED: nothing is
    charged, its reserved credits are released, `render.failed` goes to its webhook, and its worker (or
    its Render and Jobs in a cluster) is stopped. Answers the render as it now is. Cancelling a
    cancelled render answers it unchanged; any other finished render is RENDER_NOT_CANCELLABLE.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CancelRenderResponse200 | ErrorEnvelope
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
        )
    ).parsed
