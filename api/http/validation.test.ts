import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ErrorObject } from 'ajv';
import type { FastifySchema } from 'fastify';
import { ajvFindings, validatorCompiler } from './validation.ts';

/** What Fastify does with a route schema: compile it for a part of the request, run it, read the findings. */
function findings(httpPart: string, schema: object, data: unknown): { path: string; message: string }[] {
  const validate = validatorCompiler({ schema: schema as FastifySchema, httpPart, method: 'POST', url: '/x' }) as ((
    d: unknown,
  ) => boolean) & { errors?: ErrorObject[] | null };
  assert.equal(validate(data), false, 'the data is refused');
  return ajvFindings(validate.errors ?? [], httpPart === 'querystring' ? 'querystring' : httpPart).map(
    ({ path, message }) => ({ path: path ?? '', message }),
  );
}

const NUMBERS = { type: 'object', additionalProperties: { type: 'number' } };

test('request finding paths: movie/paths.ts formatPath, indexes told from digit keys by the data', () => {
  const schema = {
    type: 'object',
    properties: { map: NUMBERS, list: { type: 'array', items: NUMBERS } },
    additionalProperties: false,
  };
  const cases: [unknown, string[]][] = [
    [{ map: { '0': 'x' } }, ['map["0"]']],
    [{ map: { 'a.b': 'x' } }, ['map["a.b"]']],
    [{ map: { 'a/b~c': 'x' } }, ['map["a/b~c"]']],
    [{ map: { '': 'x' } }, ['map[""]']],
    [{ list: [{ n: 'x' }] }, ['list[0].n']],
    [{ list: [{}, { '1': 'x' }] }, ['list[1]["1"]']],
    [{ 'two words': 1 }, ['["two words"]']],
    [{ ok: 1 }, ['ok']],
  ];
  for (const [data, want] of cases) {
    assert.deepEqual(
      findings('body', schema, data).map((f) => f.path),
      want,
      JSON.stringify(data),
    );
  }
});

test('messages name the field by its path; a header is headers.<name>', () => {
  assert.deepEqual(findings('body', { type: 'object', required: ['a.b'] }, {}), [
    { path: '["a.b"]', message: '["a.b"] is required.' },
  ]);
  const header = { type: 'object', properties: { 'idempotency-key': { type: 'string', maxLength: 3 } } };
  assert.deepEqual(findings('headers', header, { 'idempotency-key': 'long' }), [
    { path: 'headers.idempotency-key', message: 'idempotency-key must NOT have more than 3 characters.' },
  ]);
  const query = { type: 'object', properties: { page: { type: 'integer' } } };
  assert.deepEqual(findings('querystring', query, { page: 'a\u0000' }), [
    { path: 'page', message: 'page must not contain the NUL character (%00).' },
  ]);
});
