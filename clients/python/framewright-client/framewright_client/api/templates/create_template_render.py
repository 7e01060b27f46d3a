from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...models.create_template_render_body import CreateTemplateRenderBody
from ...models.create_template_render_response_200 import CreateTemplateRenderResponse200
from ...models.create_template_render_response_201 import CreateTemplateRenderResponse201
from ...models.error_envelope import ErrorEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: CreateTemplateRenderBody,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["idempotency-key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/templates/{id}/renders".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CreateTemplateRenderResponse200 | CreateTemplateRenderResponse201 | ErrorEnvelope:
    if response.status_code == 200:
        response_200 = CreateTemplateRenderResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = CreateTemplateRenderResponse201.from_dict(response.json())

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

    if response.status_code == 403:
        response_403 = ErrorEnvelope.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = ErrorEnvelope.from_dict(response.json())

        return response_404

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

    response_default = ErrorEnvelope.from_dict(response.json())

    return response_default


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[CreateTemplateRenderResponse200 | CreateTemplateRenderResponse201 | ErrorEnvelope]:
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
    body: CreateTemplateRenderBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[CreateTemplateRenderResponse200 | CreateTemplateRenderResponse201 | ErrorEnvelope]:
    """Render a template with variable values

     Same creation path as POST /v1/renders; finding paths are relative to the template body.

    Args:
        id (str):
        idempotency_key (str | Unset): A key of the client's choosing, e.g. a UUID. A key outside
            these bounds is a VALIDATION_ERROR at headers.idempotency-key.
        body (CreateTemplateRenderBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateTemplateRenderResponse200 | CreateTemplateRenderResponse201 | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: CreateTemplateRenderBody,
    idempotency_key: str | Unset = UNSET,
) -> CreateTemplateRenderResponse200 | CreateTemplateRenderResponse201 | ErrorEnvelope | None:
    """Render a template with variable values

     Same creation path as POST /v1/renders; finding paths are relative to the template body.

    Args:
        id (str):
        idempotency_key (str | Unset): A key of the client's choosing, e.g. a UUID. A key outside
            these bounds is a VALIDATION_ERROR at headers.idempotency-key.
        body (CreateTemplateRenderBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateTemplateRenderResponse200 | CreateTemplateRenderResponse201 | ErrorEnvelope
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: CreateTemplateRenderBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[CreateTemplateRenderResponse200 | CreateTemplateRenderResponse201 | ErrorEnvelope]:
    """Render a template with variable values

     Same creation path as POST /v1/renders; finding paths are relative to the template body.

    Args:
        id (str):
        idempotency_key (str | Unset): A key of the client's choosing, e.g. a UUID. A key outside
            these bounds is a VALIDATION_ERROR at headers.idempotency-key.
        body (CreateTemplateRenderBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateTemplateRenderResponse200 | CreateTemplateRenderResponse201 | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: CreateTemplateRenderBody,
    idempotency_key: str | Unset = UNSET,
) -> CreateTemplateRenderResponse200 | CreateTemplateRenderResponse201 | ErrorEnvelope | None:
    """Render a template with variable values

     Same creation path as POST /v1/renders; finding paths are relative to the template body.

    Args:
        id (str):
        idempotency_key (str | Unset): A key of the client's choosing, e.g. a UUID. A key outside
            these bounds is a VALIDATION_ERROR at headers.idempotency-key.
        body (CreateTemplateRenderBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateTemplateRenderResponse200 | CreateTemplateRenderResponse201 | ErrorEnvelope
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
