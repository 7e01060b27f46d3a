import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020,
) => Ajv2020;

type Operation = { responses: Record<string, { content?: Record<string, { schema: object }> }> };
const doc = JSON.parse(readFileSync(new URL('../../api/openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
};

// The whole document is one schema resource, so `#/components/schemas/…` references resolve; each
// response schema is compiled by its JSON pointer inside it.
const DOC_ID = 'openapi.json';
const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats(ajv);
ajv.addSchema(doc, DOC_ID);

const pointerSegment = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

function validatorAt(...segments: string[]) {
  const validate = ajv.getSchema(`${DOC_ID}#/${segments.map(pointerSegment).join('/')}`);
  if (!validate) throw new Error(`no schema at ${segments.join(' ')}`);
  return validate;
}

/** The response object for a status: the exact one, else its range (4XX), else `default`. */
function responseFor(op: Operation, status: number): [string, Operation['responses'][string]] | undefined {
  for (const key of [String(status), `${String(status)[0]}XX`, 'default']) {
    const response = op.responses[key];
    if (response) return [key, response];
  }
  return undefined;
}

const routes = Object.keys(doc.paths).map((p) => ({
  template: p,
  re: new RegExp(`^${p.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

/**
 * Fails when a response of a documented route has a status the OpenAPI document does not list, or
 * a JSON body that does not validate against the documented schema. Undocumented URLs (unknown
 * routes) must answer the error envelope: they are checked against the 404 of GET /v1/renders/{id}.
 */
export function assertMatchesOpenApi(method: string, url: string, res: LightMyRequestResponse): void {
  const pathOnly = url.split('?')[0] as string;
  const route = routes.find((r) => r.re.test(pathOnly));
  const op = route ? doc.paths[route.template]?.[method.toLowerCase()] : undefined;
  const where = `${method} ${url} -> ${res.statusCode}`;
  if (!op) {
    if (res.statusCode !== 404) return;
    const validate = validatorAt(
      'paths',
      '/v1/renders/{id}',
      'get',
      'responses',
      '404',
      'content',
      'application/json',
      'schema',
    );
    if (!validate(res.json())) throw new Error(`${where}: ${ajv.errorsText(validate.errors)}`);
    return;
  }
  const found = responseFor(op, res.statusCode);
  if (!found || !route) throw new Error(`${where}: status not in the OpenAPI document`);
  const [key, response] = found;
  if (!response.content?.['application/json']?.schema) return;
  const validate = validatorAt(
    'paths',
    route.template,
    method.toLowerCase(),
    'responses',
    key,
    'content',
    'application/json',
    'schema',
  );
  if (!validate(res.json())) {
    throw new Error(`${where}: ${ajv.errorsText(validate.errors)}\n${res.body.slice(0, 500)}`);
  }
}
