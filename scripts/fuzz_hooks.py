"""schemathesis hooks of scripts/fuzz-api.sh (SCHEMATHESIS_HOOKS=scripts/fuzz_hooks.py).

The fuzzed server must not make a request off this machine. Render creation resolves a
webhook_url's host name (to refuse private addresses early), so a generated webhook_url keeps its
scheme, path and query but gets a loopback host: the server refuses it at once (VALIDATION_ERROR
at webhook_url) without a DNS query. Values the route schema rejects anyway stay as generated.
"""

import os
import re

import schemathesis

# The route schema's own pattern (api/schemas/render.ts), then the authority up to / ? or #.
_WEBHOOK = re.compile(r"^([hH][tT][tT][pP][sS]?://)([^/?#]*)(.*)$", re.DOTALL)


# The fuzzer's own key (scripts/fuzz-api.sh exports its id) must outlive the run: revoked or rolled
# by a generated DELETE /v1/keys/{id} or POST /v1/keys/{id}/roll (the stateful phase finds its id
# in GET /v1/keys), every later request would be a 401 and test nothing. Such a call gets a
# well-formed id of no key instead (NOT_FOUND, still checked against the document).
_OWN_KEY = os.environ.get("FUZZ_KEY_ID", "")
_NO_KEY = "key_00000000000000000000000000"


@schemathesis.hook
def before_call(context, case, kwargs):
    if _OWN_KEY and case.path.startswith("/v1/keys/"):
        params = case.path_parameters or {}
        if params.get("id") == _OWN_KEY:
            params["id"] = _NO_KEY
        url = kwargs.get("url")
        if isinstance(url, str) and _OWN_KEY in url:
            kwargs["url"] = url.replace(_OWN_KEY, _NO_KEY)
    body = case.body
    if not isinstance(body, dict) or not isinstance(body.get("webhook_url"), str):
        return
    match = _WEBHOOK.match(body["webhook_url"])
    if match:
        body["webhook_url"] = f"{match.group(1)}127.0.0.1{match.group(3)}"
