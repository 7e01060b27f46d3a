"""schemathesis hooks of scripts/fuzz-api.sh (SCHEMATHESIS_HOOKS=scripts/fuzz_hooks.py).

The fuzzed server must not make a request off this machine. Render creation resolves a
webhook_url's host name (to refuse private addresses early), so a generated webhook_url keeps its
scheme, path and query but gets a loopback host: the server refuses it at once (VALIDATION_ERROR
at webhook_url) without a DNS query. Values the route schema rejects anyway stay as generated.
"""

import re

import schemathesis

# The route schema's own pattern (api/schemas/render.ts), then the authority up to / ? or #.
_WEBHOOK = re.compile(r"^([hH][tT][tT][pP][sS]?://)([^/?#]*)(.*)$", re.DOTALL)


@schemathesis.hook
def before_call(context, case, kwargs):
    body = case.body
    if not isinstance(body, dict) or not isinstance(body.get("webhook_url"), str):
        return
    match = _WEBHOOK.match(body["webhook_url"])
    if match:
        body["webhook_url"] = f"{match.group(1)}127.0.0.1{match.group(3)}"
