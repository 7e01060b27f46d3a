/**
 * "Copy as TypeScript" and "Copy as Python": the request that makes a render again, as a short
 * program on the typed API clients (clients/typescript, clients/python in the Framewright
 * repository) that creates the render, waits for it and prints its outcome. As with curl
 * (curl.ts), the key is never in it: the program reads FRAMEWRIGHT_API_KEY from the environment.
 */

/** The body of POST /v1/renders that makes this render again (what the curl command sends). */
export function renderBody(
  render: { webhookUrl: string | null },
  movie: Record<string, unknown>,
): Record<string, unknown> {
  return { movie, ...(render.webhookUrl ? { webhook_url: render.webhookUrl } : {}) };
}

/** `text` with every line but the first indented by `pad`. */
const indentRest = (text: string, pad: string) => text.replaceAll('\n', `\n${pad}`);

/** The program on the TypeScript client: the body is the JSON itself, which TypeScript reads as is. */
export function typescriptCode(
  origin: string,
  render: { webhookUrl: string | null },
  movie: Record<string, unknown>,
): string {
  return [
    `import { createFramewrightClient, waitForRender } from '@framewright/client';`,
    '',
    `const fw = createFramewrightClient({ baseUrl: ${JSON.stringify(origin)}, apiKey: process.env.FRAMEWRIGHT_API_KEY });`,
    `const { data, error } = await fw.POST('/v1/renders', {`,
    `  body: ${indentRest(JSON.stringify(renderBody(render, movie), null, 2), '  ')},`,
    '});',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a template literal of the program written
    'if (error) throw new Error(`${error.error.code}: ${error.error.message}`);',
    'const render = await waitForRender(fw, data.id);',
    'console.log(render.status, render.outputUrl);',
  ].join('\n');
}

/**
 * A JSON value as a Python literal: JSON's own text, but True, False and None. JSON's string
 * escapes (\" \\ \n \uXXXX ...) are Python's too.
 */
export function pythonLiteral(value: unknown, indent = ''): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  // JSON has no NaN or Infinity (JSON.stringify writes null).
  if (typeof value === 'number' && !Number.isFinite(value)) return 'None';
  if (typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => `${inner}${pythonLiteral(v, inner)},`).join('\n')}\n${indent}]`;
  }
  // Keys whose value is undefined are absent from JSON, so from here too.
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${pythonLiteral(v, inner)},`).join('\n')}\n${indent}}`;
}

/** The program on the Python client. */
export function pythonCode(
  origin: string,
  render: { webhookUrl: string | null },
  movie: Record<string, unknown>,
): string {
  return [
    'import os',
    'import time',
    '',
    'from framewright_client import AuthenticatedClient',
    'from framewright_client.api.renders import create_render, get_render',
    'from framewright_client.models import CreateRenderBody, ErrorEnvelope',
    '',
    `client = AuthenticatedClient(base_url=${JSON.stringify(origin)}, token=os.environ["FRAMEWRIGHT_API_KEY"])`,
    `body = ${pythonLiteral(renderBody(render, movie))}`,
    'render = create_render.sync(client=client, body=CreateRenderBody.from_dict(body))',
    'while not isinstance(render, ErrorEnvelope) and render.status not in ("done", "failed"):',
    '    time.sleep(1)',
    '    render = get_render.sync(client=client, id=render.id)',
    'if isinstance(render, ErrorEnvelope):',
    '    raise SystemExit(f"{render.error.code}: {render.error.message}")',
    'print(render.status, render.output_url)',
  ].join('\n');
}
