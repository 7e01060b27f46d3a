import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { openApiDocument } from '../../api/openapi-document.ts';
import { ERROR_CATALOG, ERROR_CODES } from '../../lib/errors.ts';
import { backends, startApp } from './helpers.ts';

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

test('served documents: OpenAPI, movie JSON Schema, one docs page per error code', async (t) => {
  const backend = backends().at(-1);
  assert.ok(backend);
  const db = await backend.open();
  const app = await startApp(db);
  t.after(async () => {
    await app.close();
    await db.close();
  });
  const openapi = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
  assert.equal(openapi.statusCode, 200);
  assert.equal(openapi.json().openapi, '3.1.0');
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
