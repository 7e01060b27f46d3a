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

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

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
    const schema = doc.paths['/v1/renders/{id}']?.get?.responses['404']?.content?.['application/json']?.schema;
    if (schema && !ajv.validate(schema, res.json())) throw new Error(`${where}: ${ajv.errorsText()}`);
    return;
  }
  const response = op.responses[String(res.statusCode)];
  if (!response) throw new Error(`${where}: status not in the OpenAPI document`);
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return;
  if (!ajv.validate(schema, res.json())) throw new Error(`${where}: ${ajv.errorsText()}\n${res.body.slice(0, 500)}`);
}
