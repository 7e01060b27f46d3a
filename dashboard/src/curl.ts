import { renderBody } from './request-code.ts';

/**
 * "Copy as curl": the request that makes a render again, as a shell command. The key is never in
 * it: the command reads $FRAMEWRIGHT_API_KEY, so a pasted command leaks nothing. The body goes
 * through a quoted here-document, so no character of the document needs shell escaping.
 */
export function curlCommand(
  origin: string,
  render: { webhookUrl: string | null },
  movie: Record<string, unknown>,
): string {
  const body = renderBody(render, movie);
  return [
    `curl -sS -X POST '${origin}/v1/renders' \\`,
    `  -H "Authorization: Bearer $FRAMEWRIGHT_API_KEY" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  --data-binary @- <<'JSON'`,
    // Pretty-printed JSON never has a line that is only JSON (strings are quoted), so the
    // here-document cannot end early.
    JSON.stringify(body, null, 2),
    'JSON',
  ].join('\n');
}
