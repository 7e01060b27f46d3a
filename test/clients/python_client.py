"""The generated Python client (clients/python/framewright-client) against a live `framewright serve`.

Run by test/clients/live.test.ts with .cache/venv/bin/python, the package on PYTHONPATH, and:
FRAMEWRIGHT_BASE_URL, FRAMEWRIGHT_API_KEY, HELLO_MOVIE (a path: examples/hello.json), TINY_MOVIE
(a movie document as JSON: a second, quick render so that paging has two pages) and OUT_MP4 (where
the download goes). It uses the client as a user would: create a render with an Idempotency-Key
(and replay it), poll to done, download the MP4 through outputUrl, list renders one per page
following `hasMore`, and read the typed error envelope of a bad movie and of a wrong key. Every
answer must parse into the model its status is documented with; what it saw is printed as one
JSON object, which the Node test judges (and the MP4, with ffprobe).
"""

import json
import os
import time

import httpx
from framewright_client import AuthenticatedClient
from framewright_client.api.renders import create_render, get_render, list_renders
from framewright_client.models import (
    CreateRenderBody,
    CreateRenderResponse200,
    CreateRenderResponse201,
    ErrorEnvelope,
    GetRenderResponse200,
    ListRendersResponse200,
)

base_url = os.environ["FRAMEWRIGHT_BASE_URL"]
api_key = os.environ["FRAMEWRIGHT_API_KEY"]
with open(os.environ["HELLO_MOVIE"], encoding="utf-8") as f:
    hello = json.load(f)
tiny = json.loads(os.environ["TINY_MOVIE"])
out_mp4 = os.environ["OUT_MP4"]
report: dict = {}


def expect(value, model, what):
    """The parsed answer, checked to be the documented model (else what it was instead)."""
    if not isinstance(value, model):
        raise AssertionError(f"{what}: expected {model.__name__}, got {type(value).__name__}: {value!r}")
    return value


def wait(client, render_id):
    """Polls GET /v1/renders/{id} until the render is done or failed (at most 120 s)."""
    deadline = time.monotonic() + 120
    while True:
        render = expect(get_render.sync(client=client, id=render_id), GetRenderResponse200, "GET /v1/renders/{id}")
        if render.status in ("done", "failed"):
            return render
        if time.monotonic() > deadline:
            raise AssertionError(f"{render_id} still {render.status} after 120 s")
        time.sleep(0.2)


# An undocumented status raises instead of answering None.
with AuthenticatedClient(base_url=base_url, token=api_key, raise_on_unexpected_status=True) as client:
    # The body through the generated models and back: what is sent is the document as written.
    body = CreateRenderBody.from_dict({"movie": hello})
    report["bodyRoundTrip"] = body.to_dict() == {"movie": hello}

    created = create_render.sync_detailed(client=client, body=body, idempotency_key="py-hello-1")
    first = expect(created.parsed, CreateRenderResponse201, f"POST /v1/renders ({created.status_code})")
    replay = create_render.sync_detailed(client=client, body=body, idempotency_key="py-hello-1")
    again = expect(replay.parsed, CreateRenderResponse200, f"POST /v1/renders replayed ({replay.status_code})")
    report["created"] = {"status": created.status_code, "id": first.id, "state": first.status}
    report["replayed"] = {"status": replay.status_code, "id": again.id}

    second = create_render.sync_detailed(client=client, body=CreateRenderBody.from_dict({"movie": tiny}))
    tiny_render = expect(second.parsed, CreateRenderResponse201, f"POST /v1/renders, tiny ({second.status_code})")

    done = wait(client, first.id)
    report["done"] = {
        "status": done.status,
        "progress": done.progress,
        "outputUrl": done.output_url,
        "durationSec": done.duration_sec,
        "error": done.error.to_dict() if done.error else None,
    }
    report["tiny"] = {"id": tiny_render.id, "status": wait(client, tiny_render.id).status}

    # outputUrl is signed: no key, any HTTP client (here the one the generated client is built on).
    if done.output_url:
        with httpx.stream("GET", done.output_url, follow_redirects=True) as res, open(out_mp4, "wb") as out:
            for chunk in res.iter_bytes():
                out.write(chunk)
            report["download"] = {"status": res.status_code, "contentType": res.headers.get("content-type")}

    # Paging as docs/api.md defines it: page 1, 2, ... while hasMore.
    pages = []
    page = 1
    while page <= 10:
        listed = expect(list_renders.sync(client=client, page=page, page_size=1), ListRendersResponse200, "list")
        pages.append(
            {
                "page": listed.page,
                "pageSize": listed.page_size,
                "total": listed.total,
                "hasMore": listed.has_more,
                "ids": [item.id for item in listed.items],
            }
        )
        if not listed.has_more:
            break
        page += 1
    report["pages"] = pages

    bad_movie = json.loads(json.dumps(hello))
    bad_movie["scenes"][0]["duration"] = -1
    invalid = create_render.sync_detailed(client=client, body=CreateRenderBody.from_dict({"movie": bad_movie}))
    envelope = expect(invalid.parsed, ErrorEnvelope, f"POST /v1/renders, bad movie ({invalid.status_code})")
    report["invalid"] = {
        "status": invalid.status_code,
        "code": envelope.error.code,
        "path": envelope.error.path,
        "requestId": envelope.request_id,
    }

with AuthenticatedClient(base_url=base_url, token="fw_live_" + "x" * 40) as stranger:
    refused = list_renders.sync_detailed(client=stranger)
    envelope = expect(refused.parsed, ErrorEnvelope, f"GET /v1/renders, wrong key ({refused.status_code})")
    report["unauthorized"] = {"status": refused.status_code, "code": envelope.error.code}

print(json.dumps(report))
