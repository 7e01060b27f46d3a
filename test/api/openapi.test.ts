import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { type TestContext, test } from 'node:test';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../../api/http/schemas.ts';
import { openApiDocument } from '../../api/openapi-document.ts';
import { ERROR_CATALOG, ERROR_CODES } from '../../lib/errors.ts';
import { movieJsonSchema } from '../../movie/index.ts';
import { backends, client, newAccount, startApp } from './helpers.ts';

test('api/openapi.json is current (regenerate: npx tsx api/generate-openapi.ts)', async () => {
  const committed = JSON.parse(await readFile(new URL('../../api/openapi.json', import.meta.url), 'utf8'));
  assert.deepEqual(committed, await openApiDocument());
});

test('every operation documents its errors and the pipeline-wide codes', async () => {
  const doc = (await openApiDocument()) as {
    openapi: string;
    paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>>;
  };
  assert.equal(doc.openapi, '3.1.0');
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (op.security && op.security.length === 0) continue; // public documents
      for (const status of ['400', '401', '429', '500']) {
        assert.ok(op.responses[status], `${method.toUpperCase()} ${path} lacks ${status}`);
      }
    }
  }
});

type Doc = {
  components: { schemas: Record<string, Record<string, unknown>> };
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string; schema: Record<string, unknown> }[];
        requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
        responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
      }
    >
  >;
};

test('request bodies reference the real movie JSON Schema; every operation has a default error', async () => {
  const doc = (await openApiDocument()) as unknown as Doc;
  const { $schema: _s, $id: _i, ...movie } = movieJsonSchema('v1');
  assert.deepEqual(doc.components.schemas.MovieV1, movie);
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const body = (path: string, method: string) =>
    doc.paths[path]?.[method]?.requestBody?.content['application/json']?.schema.properties;
  assert.deepEqual(body('/v1/renders', 'post')?.movie, ref('MovieV1'));
  assert.deepEqual(body('/v1/renders', 'post')?.variables, ref('VariableValues'));
  assert.deepEqual(body('/v1/templates', 'post')?.body, ref('MovieV1'));
  assert.deepEqual(body('/v1/templates/{id}', 'put')?.body, ref('MovieV1'));
  assert.deepEqual(body('/v1/templates/{id}/renders', 'post')?.variables, ref('VariableValues'));
  assert.deepEqual(
    doc.paths['/v1/scripts/{id}/movie']?.post?.responses['200']?.content?.['application/json']?.schema,
    ref('MovieV1'),
  );
  assert.ok(!JSON.stringify(doc).includes('x-fw-component'), 'no marker left in the document');
  assert.equal(doc.components.schemas.IdempotencyKey?.maxLength, IDEMPOTENCY_KEY_MAX_LENGTH);
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const where = `${method.toUpperCase()} ${path}`;
      assert.deepEqual(op.responses.default?.content?.['application/json']?.schema, ref('ErrorEnvelope'), where);
      for (const [status, response] of Object.entries(op.responses)) {
        // Error statuses answer the envelope; a bodiless one (416 of a byte range) says so by having no content.
        if ((status.startsWith('4') || status.startsWith('5')) && response.content)
          assert.deepEqual(response.content?.['application/json']?.schema, ref('ErrorEnvelope'), `${where} ${status}`);
      }
      const key = op.parameters?.find((p) => p.in === 'header' && p.name === 'idempotency-key');
      if (key) assert.deepEqual(key.schema, ref('IdempotencyKey'), where);
    }
  }
});

/** The app on a fresh embedded database, both closed after the test. */
async function appOnEmbedded(t: TestContext) {
  const backend = backends().at(-1);
  assert.ok(backend);
  const db = await backend.open();
  const app = await startApp(db);
  t.after(async () => {
    await app.close();
    await db.close();
  });
  return { app, db };
}

test('served documents: OpenAPI, movie JSON Schema, one docs page per error code', async (t) => {
  const { app } = await appOnEmbedded(t);
  const openapi = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
  assert.equal(openapi.statusCode, 200);
  const { servers: _served, ...served } = openapi.json();
  const { servers: _generated, ...generated } = await openApiDocument();
  assert.deepEqual(served, generated, 'the served document is the generated one (but for its server URL)');
  const schema = await app.inject({ method: 'GET', url: '/v1/schemas/movie.v1.json' });
  assert.equal(schema.statusCode, 200);
  assert.match(String(schema.json().$schema), /2020-12/);
  for (const code of ERROR_CODES) {
    const page = await app.inject({ method: 'GET', url: `/docs/errors/${code}` });
    assert.equal(page.statusCode, 200, code);
    assert.match(page.headers['content-type'] as string, /text\/html/);
    assert.ok(page.body.includes(`HTTP ${ERROR_CATALOG[code].status}`), code);
  }
});

test('the documented request examples are accepted: a movie, a template and a render of it', async (t) => {
  const doc = (await openApiDocument()) as unknown as Doc;
  const example = (path: string, method: string) =>
    (doc.paths[path]?.[method]?.requestBody?.content['application/json'] as { example?: unknown } | undefined)?.example;
  const { app, db } = await appOnEmbedded(t);
  const acc = await newAccount(db, { plan: 'pro', credits: 100 });
  const api = client(app, acc.key);
  const render = await api('POST', '/v1/renders', example('/v1/renders', 'post'));
  assert.equal(render.statusCode, 201, render.body);
  const template = await api('POST', '/v1/templates', example('/v1/templates', 'post'));
  assert.equal(template.statusCode, 201, template.body);
  const id = template.json().id as string;
  const renamed = await api('PUT', `/v1/templates/${id}`, example('/v1/templates/{id}', 'put'));
  assert.equal(renamed.statusCode, 200, renamed.body);
  const fromTemplate = await api('POST', `/v1/templates/${id}/renders`, example('/v1/templates/{id}/renders', 'post'));
  assert.equal(fromTemplate.statusCode, 201, fromTemplate.body);
  assert.equal(fromTemplate.json().draft, true);
});

test('a request without a body is refused exactly where the document says the body is required', async (t) => {
  const doc = (await openApiDocument()) as unknown as {
    paths: Record<string, Record<string, { requestBody?: { required?: boolean } }>>;
  };
  const { app, db } = await appOnEmbedded(t);
  const acc = await newAccount(db, { plan: 'pro', credits: 100 });
  const api = client(app, acc.key);
  // A well-formed id: a missing body is refused before anything looks the id up.
  const ids: Record<string, string> = { templates: 'tpl', scripts: 'scr', keys: 'key', renders: 'rnd', assets: 'ast' };
  let checked = 0;
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (!op.requestBody) continue;
      const url = path.replace('{id}', () => `${ids[path.split('/')[2] ?? '']}_01m851406t7zw5prpwqwydbh9r`);
      const res = await api(method.toUpperCase() as 'POST', url);
      const where = `${method.toUpperCase()} ${path}`;
      if (op.requestBody.required === false) {
        // Taken (an unknown id is still a 404, after the body was accepted).
        assert.notEqual(res.statusCode, 400, `${where}: the body is optional, yet ${res.body}`);
      } else {
        assert.equal(res.statusCode, 400, `${where}: the body is required, yet ${res.statusCode} ${res.body}`);
        const { error } = res.json<{ error: { code: string; path?: string } }>();
        assert.equal(error.code, 'VALIDATION_ERROR', where);
        assert.equal(error.path ?? '', '', where);
      }
      checked++;
    }
  }
  assert.ok(checked >= 8, `only ${checked} operations with a body`);
  // docs/api.md: "no body at all means the default" (the caller's mode).
  const noBody = await api('POST', '/v1/keys');
  assert.equal(noBody.statusCode, 201, noBody.body);
  assert.equal(noBody.json().mode, 'live');
  assert.equal(doc.paths['/v1/keys']?.post?.requestBody?.required, false);
});
