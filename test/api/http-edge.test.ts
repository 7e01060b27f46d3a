import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { errorCodes, type FastifyError, type FastifyInstance } from 'fastify';
import { formatBytes } from '../../api/http/body-limit.ts';
import { findUnstorable, MAX_JSON_DEPTH, parseJsonBody } from '../../api/http/json-parser.ts';
import { toAppError } from '../../api/plugins/error-handler.ts';
import { type AppError, ERROR_CATALOG, type ErrorCode } from '../../lib/errors.ts';
import { movie } from './docs.ts';
import { client, eachBackend, newAccount, startApp } from './helpers.ts';

type Envelope = {
  error: { code: string; message: string; docsUrl: string; path?: string };
  errors?: unknown[];
  requestId: string;
};

interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** The spec's envelope, with the catalogue's status for its code and the id of X-Request-Id. */
function assertEnvelope(res: Answer, status: number, code: ErrorCode, path?: string): Envelope {
  assert.equal(res.statusCode, status, res.body);
  const body = JSON.parse(res.body) as Envelope;
  assert.equal(body.error.code, code, res.body);
  assert.equal(ERROR_CATALOG[code].status, status);
  assert.equal(body.error.docsUrl, `http://api.test/docs/errors/${code}`);
  assert.equal(typeof body.error.message, 'string');
  assert.match(body.requestId, /^req_[0-9a-z]{26}$/);
  assert.equal(res.headers['x-request-id'], body.requestId);
  assert.deepEqual(
    Object.keys(body.error).sort(),
    ['code', 'docsUrl', 'message', ...('path' in body.error ? ['path'] : [])].sort(),
  );
  if (path !== undefined) assert.equal(body.error.path ?? '', path);
  return body;
}

/** One request over a real socket, for what Node's HTTP parser refuses before Fastify sees it. */
async function rawHttp(app: FastifyInstance, request: string): Promise<Answer> {
  const { port } = app.server.address() as net.AddressInfo;
  const text = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let out = '';
    socket.setEncoding('latin1');
    socket.on('data', (d) => {
      out += d;
    });
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
    // Not end(): Node drops a request whose client half-closes before the answer. The server
    // closes (Connection: close, or after refusing the request) and so ends the exchange.
    socket.write(request);
  });
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
  }
  return { statusCode: Number(statusLine.split(' ')[1]), headers, body };
}

const JSON_TYPE = { 'content-type': 'application/json' };

/** The body of a create-render request with `text` as the raw JSON of its one text element. */
function renderBodyWithText(rawText: string): string {
  return JSON.stringify({ movie: movie() }).replace('"Hello"', rawText);
}

// A 1x1 GIF: the smallest upload the asset route accepts.
const GIF = Buffer.from(
  '47494638396101000100800000ffffff00000021f90401000000002c00000000010001000002024401003b',
  'hex',
);

test('edge cases of HTTP and JSON: each a 4xx envelope with a catalog code, never a 5xx', async (t) => {
  await eachBackend(t, async (t, db) => {
    const app = await startApp(db);
    t.after(() => app.close());
    await app.listen({ port: 0, host: '127.0.0.1' });
    const acc = await newAccount(db, { plan: 'pro', credits: 1000 });
    const auth = { authorization: `Bearer ${acc.key}` };
    const api = client(app, acc.key);

    await t.test('a malformed or over-long id on every id route is 404 NOT_FOUND like an unknown id', async () => {
      const routes: {
        method: 'GET' | 'PUT' | 'DELETE' | 'POST';
        url: (id: string) => string;
        prefix: string;
        body?: object;
      }[] = [
        { method: 'GET', url: (id) => `/v1/renders/${id}`, prefix: 'rnd' },
        { method: 'GET', url: (id) => `/v1/templates/${id}`, prefix: 'tpl' },
        { method: 'PUT', url: (id) => `/v1/templates/${id}`, prefix: 'tpl', body: { name: 'Hello' } },
        { method: 'DELETE', url: (id) => `/v1/templates/${id}`, prefix: 'tpl' },
        { method: 'POST', url: (id) => `/v1/templates/${id}/renders`, prefix: 'tpl', body: {} },
        { method: 'GET', url: (id) => `/v1/scripts/${id}`, prefix: 'scr' },
        { method: 'POST', url: (id) => `/v1/scripts/${id}/movie`, prefix: 'scr', body: {} },
        { method: 'GET', url: (id) => `/v1/assets/${id}`, prefix: 'ast' },
        { method: 'DELETE', url: (id) => `/v1/assets/${id}`, prefix: 'ast' },
        { method: 'GET', url: (id) => `/v1/assets/${id}/content?sig=x`, prefix: 'ast' },
        { method: 'GET', url: (id) => `/v1/outputs/${id}?expires=1&sig=x`, prefix: 'rnd' },
      ];
      // [as sent in the URL, as the route sees it]
      const malformed = (prefix: string): [string, string][] => [
        [`${prefix}_%00`, `${prefix}_\u0000`],
        [`${prefix}_01m851406t7z%00w5prpwqwydbh9r`, `${prefix}_01m851406t7z\u0000w5prpwqwydbh9r`],
        [`${prefix}_${'a'.repeat(97)}`, `${prefix}_${'a'.repeat(97)}`], // 101: over Fastify's default
        [`${prefix}_${'b'.repeat(496)}`, `${prefix}_${'b'.repeat(496)}`], // 500: the router's limit
        [`${prefix}_%E2%82%AC`, `${prefix}_€`],
        [`${prefix.toUpperCase()}_01M851406T7ZW5PRPWQWYDBH9R`, `${prefix.toUpperCase()}_01M851406T7ZW5PRPWQWYDBH9R`],
      ];
      for (const route of routes) {
        const unknownId = `${route.prefix}_${'0'.repeat(26)}`;
        const unknown = await api(route.method, route.url(unknownId), route.body);
        const expected = assertEnvelope(unknown, 404, 'NOT_FOUND');
        for (const [sent, seen] of malformed(route.prefix)) {
          const res = await api(route.method, route.url(sent), route.body);
          const where = `${route.method} ${route.url(sent).slice(0, 60)}`;
          const got = assertEnvelope(res, 404, 'NOT_FOUND');
          assert.equal(got.error.message, expected.error.message.replace(unknownId, seen), where);
          assert.equal(got.error.path, expected.error.path, where);
        }
      }
    });

    await t.test('an id past the router limit (500) is a 404 envelope too, not a bare 414', async () => {
      const res = await app.inject({ method: 'GET', url: `/v1/renders/rnd_${'a'.repeat(600)}`, headers: auth });
      assertEnvelope(res, 404, 'NOT_FOUND');
    });

    await t.test('a bad percent-encoding in the path is a 404 envelope, not a bare 400', async () => {
      for (const url of ['/v1/renders/%ff', '/v1/rend%ffers', '/v1/renders/rnd_%E0%A4%A']) {
        assertEnvelope(await app.inject({ method: 'GET', url, headers: auth }), 404, 'NOT_FOUND');
      }
    });

    await t.test('a NUL in a query string is 400 at its field, not a database error', async () => {
      const upload = (name: string) =>
        app.inject({
          method: 'POST',
          url: `/v1/assets?name=${name}`,
          headers: { ...auth, 'content-type': 'image/gif' },
          payload: GIF,
        });
      assertEnvelope(await upload('a%00b'), 400, 'VALIDATION_ERROR', 'name');
      assert.equal((await upload('ok')).statusCode, 201);
    });

    await t.test('lone surrogates in JSON strings and keys are 400 at their exact path', async () => {
      // In the movie, relative to the document (docs/api.md, Errors); elsewhere, to the request.
      const text = 'scenes[0].elements[0].text';
      const cases: [string, string, string][] = [
        ['\\ud800 in movie text', renderBodyWithText('"\\ud800"'), text],
        ['upper-case low half', renderBodyWithText('"x\\uDC00y"'), text],
        ['a pair the wrong way round', renderBodyWithText('"\\ude00\\ud83d"'), text],
        ['a high half at the end', renderBodyWithText('"ok \\ud83d\\ude00 \\uD83D"'), text],
        ['in a key', renderBodyWithText('"Hello", "\\ud800": 1'), 'scenes[0].elements[0].\ud800'],
        [
          'in a variables key',
          JSON.stringify({ movie: movie(), variables: {} }).replace('{}', '{"\\udbff":"x"}'),
          'variables.\udbff',
        ],
      ];
      for (const [name, payload, path] of cases) {
        const res = await app.inject({
          method: 'POST',
          url: '/v1/renders',
          headers: { ...auth, ...JSON_TYPE },
          payload,
        });
        assertEnvelope(res, 400, 'VALIDATION_ERROR', path);
        assert.match(JSON.parse(res.body).error.message, /lone surrogate/, name);
      }
      // A well-formed pair (an emoji) is text like any other.
      const ok = await app.inject({
        method: 'POST',
        url: '/v1/renders',
        headers: { ...auth, ...JSON_TYPE },
        payload: renderBodyWithText('"ok \\ud83d\\ude00"'),
      });
      assert.equal(ok.statusCode, 201, ok.body);
    });

    await t.test('a NUL or lone surrogate in a movie document is a finding at its document-relative path', async () => {
      const template = await api('POST', '/v1/templates', { name: 'Edge', body: movie() });
      assert.equal(template.statusCode, 201, template.body);
      const tpl = template.json().id as string;
      const renders = async () => (await api('GET', '/v1/renders')).json().total;
      const rendersBefore = await renders();
      const withText = (raw: string) => JSON.stringify(movie()).replace('"Hello"', raw);
      const text = 'scenes[0].elements[0].text';
      // [method, url, raw body, path, message]
      const cases: [string, string, string, string, RegExp][] = [
        [
          'POST',
          '/v1/renders',
          `{"movie":${withText('"a\\u0000b"')}}`,
          text,
          /^scenes\[0\]\.elements\[0\]\.text .*NUL/,
        ],
        [
          'POST',
          '/v1/renders',
          `{"movie":${withText('"\\ud800"')}}`,
          text,
          /^scenes\[0\]\.elements\[0\]\.text .*surrogate/,
        ],
        ['POST', '/v1/renders', `{"movie":${withText('"Hello","\\u0000":1')}}`, 'scenes[0].elements[0].\u0000', /NUL/],
        ['POST', '/v1/templates', `{"name":"x","body":${withText('"a\\u0000b"')}}`, text, /NUL/],
        ['POST', '/v1/templates', `{"name":"x","body":${withText('"\\udfff"')}}`, text, /surrogate/],
        ['PUT', `/v1/templates/${tpl}`, `{"body":${withText('"\\ud800x"')}}`, text, /surrogate/],
        // Fields of the request, outside the movie, keep request-relative paths.
        ['POST', '/v1/renders', `{"movie":${withText('"Hello"')},"variables":{"v":"a\\u0000"}}`, 'variables.v', /NUL/],
        ['POST', '/v1/templates', `{"name":"a\\u0000","body":${withText('"Hello"')}}`, 'name', /NUL/],
        ['PUT', `/v1/templates/${tpl}`, `{"name":"\\ud800"}`, 'name', /surrogate/],
        [
          'POST',
          '/v1/templates/check',
          `{"body":${withText('"Hello"')},"variables":{"\\ud800":1}}`,
          'variables.\ud800',
          /surrogate/,
        ],
        // `movie` itself a string is a request field, not a document.
        ['POST', '/v1/renders', '{"movie":"a\\u0000"}', 'movie', /NUL/],
      ];
      for (const [method, url, payload, path, message] of cases) {
        const res = await api(method as 'POST', url, payload, JSON_TYPE);
        const body = assertEnvelope(res, 400, 'VALIDATION_ERROR', path);
        assert.match(body.error.message, message, `${method} ${url} ${payload.slice(0, 60)}`);
      }
      // The template check answers document findings as the write would, in its errors (200).
      for (const [raw, problem] of [
        ['"a\\u0000b"', /NUL/],
        ['"\\ud800"', /surrogate/],
      ] as const) {
        const res = await api('POST', '/v1/templates/check', `{"body":${withText(raw)}}`, JSON_TYPE);
        assert.equal(res.statusCode, 200, res.body);
        const check = res.json<{ valid: boolean; errors: Envelope['error'][]; warnings: unknown[] }>();
        assert.equal(check.valid, false);
        assert.equal(check.errors.length, 1, res.body);
        assert.equal(check.errors[0]?.code, 'VALIDATION_ERROR');
        assert.equal(check.errors[0]?.path, text);
        assert.match(check.errors[0]?.message ?? '', problem);
        assert.deepEqual(check.warnings, []);
      }
      // Nothing of it was stored: the template still has its name, and no render was made.
      const after = await api('GET', `/v1/templates/${tpl}`);
      assert.equal(after.json().name, 'Edge');
      assert.equal(await renders(), rendersBefore);
    });

    await t.test("a 405's Allow lists exactly the methods of the routes registered for the path", async () => {
      const METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'] as const;
      // [a request path, the route url the router takes it to]
      const cases: [string, string][] = [
        ['/v1/templates/check', '/v1/templates/check'],
        ['/v1/templates/tpl_01m851406t7zw5prpwqwydbh9r', '/v1/templates/:id'],
        ['/v1/templates/tpl_01m851406t7zw5prpwqwydbh9r/renders', '/v1/templates/:id/renders'],
        ['/v1/templates', '/v1/templates'],
        ['/v1/keys/key_01m851406t7zw5prpwqwydbh9r/roll', '/v1/keys/:id/roll'],
        ['/v1/assets/ast_01m851406t7zw5prpwqwydbh9r/content', '/v1/assets/:id/content'],
      ];
      for (const [path, route] of cases) {
        const served = METHODS.filter((method) => app.hasRoute({ method, url: route }));
        assert.ok(served.length > 0, route);
        const allow = served.join(', ');
        for (const method of METHODS.filter((m) => !served.includes(m))) {
          const res = await app.inject({ method, url: path, headers: { ...auth, ...JSON_TYPE }, payload: '{' });
          assert.equal(res.statusCode, 405, `${method} ${path}`);
          if (method !== 'HEAD') assertEnvelope(res, 405, 'METHOD_NOT_ALLOWED');
          assert.equal(res.headers.allow, allow, `${method} ${path}`);
        }
      }
    });

    await t.test('deeply nested bodies (5,000 and 100,000 levels) are 400, not a stack overflow', async () => {
      for (const n of [5_000, 100_000]) {
        for (const payload of [
          `${'['.repeat(n)}"\\u0000"${']'.repeat(n)}`,
          `${'['.repeat(n)}"\\ud800"${']'.repeat(n)}`,
          `{"movie":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}`,
          '['.repeat(n),
        ]) {
          const res = await app.inject({
            method: 'POST',
            url: '/v1/renders',
            headers: { ...auth, ...JSON_TYPE },
            payload,
          });
          assertEnvelope(res, 400, 'VALIDATION_ERROR', '');
        }
      }
    });

    await t.test('invalid UTF-8 in a JSON body is 400; a UTF-8 byte order mark is allowed', async () => {
      const [before, after] = renderBodyWithText('"Hello"').split('Hello') as [string, string];
      for (const bad of [[0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xe2, 0x82]]) {
        const payload = Buffer.concat([Buffer.from(before), Buffer.from(bad), Buffer.from(after)]);
        const res = await app.inject({
          method: 'POST',
          url: '/v1/renders',
          headers: { ...auth, ...JSON_TYPE },
          payload,
        });
        const body = assertEnvelope(res, 400, 'VALIDATION_ERROR', '');
        assert.equal(body.error.message, 'The request body is not valid UTF-8.');
      }
      const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(renderBodyWithText('"Hello"'))]);
      const res = await app.inject({
        method: 'POST',
        url: '/v1/renders',
        headers: { ...auth, ...JSON_TYPE },
        payload: bom,
      });
      assert.equal(res.statusCode, 201, res.body);
    });

    await t.test('oversized headers and broken requests get the envelope over the wire', async () => {
      const cases: [string, number, ErrorCode][] = [
        [`GET /v1/usage HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'HEADERS_TOO_LARGE'],
        ['GARBAGE\r\n\r\n', 400, 'VALIDATION_ERROR'],
        ['GET /v1/usage HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n', 400, 'VALIDATION_ERROR'],
        ['GET /v1/renders/%ff HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 404, 'NOT_FOUND'],
        [
          `GET /v1/renders/rnd_%00 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${acc.key}\r\nConnection: close\r\n\r\n`,
          404,
          'NOT_FOUND',
        ],
      ];
      for (const [request, status, code] of cases) {
        const res = await rawHttp(app, request);
        assertEnvelope(res, status, code);
        assert.match(String(res.headers['content-type']), /^application\/json/);
        assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.body, 'latin1'));
      }
    });

    await t.test('an unsupported Content-Type is 400 at headers.content-type', async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/v1/renders',
        headers: { ...auth, 'content-type': 'application/xml' },
        payload: '<movie/>',
      });
      assertEnvelope(res, 400, 'VALIDATION_ERROR', 'headers.content-type');
    });

    await t.test('an unsupported method on a known path is 405 with the Allow header', async () => {
      const cases: [string, string, string][] = [
        ['PATCH', '/v1/renders', 'GET, HEAD, POST'],
        ['DELETE', '/v1/renders/rnd_01m851406t7zw5prpwqwydbh9r', 'GET, HEAD'],
        ['PUT', '/v1/usage', 'GET, HEAD'],
        ['OPTIONS', '/v1/renders', 'GET, HEAD, POST'],
        ['HEAD', '/v1/scripts', 'POST'],
        ['POST', '/v1/templates/tpl_01m851406t7zw5prpwqwydbh9r', 'DELETE, GET, HEAD, PUT'],
        ['PUT', '/v1/renders/', 'GET, HEAD, POST'],
      ];
      for (const [method, url, allow] of cases) {
        // The body is broken JSON: it must not be read for a request no route takes.
        const res = await app.inject({
          method: method as 'GET',
          url,
          headers: { ...auth, ...JSON_TYPE },
          payload: method === 'HEAD' ? undefined : '{',
        });
        assert.equal(res.statusCode, 405, `${method} ${url}`);
        assert.equal(res.headers.allow, allow, `${method} ${url}`);
        if (method !== 'HEAD') assertEnvelope(res, 405, 'METHOD_NOT_ALLOWED');
        // Every method in Allow is really served there.
        for (const m of allow.split(', ')) {
          const served = await app.inject({
            method: m as 'GET',
            url,
            headers: { ...auth, ...JSON_TYPE },
            payload: m === 'GET' || m === 'HEAD' ? undefined : '{}',
          });
          assert.notEqual(served.statusCode, 405, `${m} ${url}`);
          if (served.statusCode === 404) assert.doesNotMatch(served.body, /No route/, `${m} ${url}`);
        }
      }
      const unknown = await app.inject({
        method: 'POST',
        url: '/v1/nope',
        headers: { ...auth, ...JSON_TYPE },
        payload: '{',
      });
      assertEnvelope(unknown, 404, 'NOT_FOUND');
      assert.equal(unknown.headers.allow, undefined);
    });

    await t.test('a 413 names the body limit of the route that refused it', async () => {
      const json = await app.inject({
        method: 'POST',
        url: '/v1/renders',
        headers: { ...auth, ...JSON_TYPE },
        payload: `{"movie":"${'x'.repeat(1024 * 1024)}"}`,
      });
      assert.equal(
        assertEnvelope(json, 413, 'PAYLOAD_TOO_LARGE').error.message,
        'The request body is larger than 1 MiB.',
      );
      // Declared too large: refused on the Content-Length alone, before a byte is read.
      const upload = await app.inject({
        method: 'POST',
        url: '/v1/assets',
        headers: { ...auth, 'content-type': 'video/mp4', 'content-length': String(100 * 1024 * 1024 + 1) },
        payload: GIF,
      });
      // The upload route streams its body and words its own 413; it must name its own limit.
      const body = assertEnvelope(upload, 413, 'PAYLOAD_TOO_LARGE');
      assert.match(body.error.message, /\b100 (MiB|MB)\b/);
    });
  });
});

test('every Fastify error with a 4xx status maps to a 4xx catalog code, never INTERNAL', () => {
  const request = { method: 'GET', url: '/v1/x', bodyLimit: () => 1024 * 1024 };
  let checked = 0;
  for (const [name, ErrorClass] of Object.entries(errorCodes)) {
    const err = new (ErrorClass as unknown as new (...a: string[]) => FastifyError)('a', 'b', 'c');
    const status = err.statusCode ?? 500;
    if (status < 400 || status > 499) continue;
    const appError = toAppError(err, request);
    assert.ok(appError.status >= 400 && appError.status < 500, `${name} (${status}) -> ${appError.code}`);
    checked++;
  }
  assert.ok(checked >= 10, `only ${checked} client errors checked`);
});

test("a 413 from Fastify names the refusing route's bodyLimit", () => {
  const tooLarge = new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
  const upload = { method: 'POST', url: '/v1/assets', bodyLimit: () => 100 * 1024 * 1024 };
  assert.equal(toAppError(tooLarge, upload).message, 'The request body is larger than 100 MiB.');
  const json = { ...upload, bodyLimit: () => 1024 * 1024 };
  assert.equal(toAppError(tooLarge, json).message, 'The request body is larger than 1 MiB.');
});

test('the string scan is iterative: a 100,000-deep value does not overflow the stack', () => {
  let deep: unknown = 'a\u0000b';
  for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { k: deep };
  const hit = findUnstorable(deep);
  assert.equal(hit?.problem, 'nul');
  // The outermost level is an array, so the path opens with `[0]` and alternates with `.k`.
  assert.equal(hit?.path, '[0].k'.repeat(50_000));
  assert.deepEqual(findUnstorable({ a: ['ok', { b: 'x\ud800' }] }), { path: 'a[1].b', problem: 'surrogate' });
  assert.deepEqual(findUnstorable({ a: 'x\u0000', b: '\ud800' }), { path: 'a', problem: 'nul' });
  // Keys and values in document order: the value under `a` comes before the key after it.
  assert.deepEqual(findUnstorable({ a: { b: '\u0000' }, 'c\u0000': 1 }), { path: 'a.b', problem: 'nul' });
  assert.deepEqual(findUnstorable({ a: 1, 'c\ud800': { d: '\u0000' } }), { path: 'c\ud800', problem: 'surrogate' });
  assert.equal(findUnstorable({ a: ['ok \ud83d\ude00'] }), undefined);
});

test(`JSON bodies nest at most ${MAX_JSON_DEPTH} levels; brackets inside strings do not count`, () => {
  const nested = (n: number) => Buffer.from(`${'['.repeat(n)}${']'.repeat(n)}`);
  assert.doesNotThrow(() => parseJsonBody(nested(MAX_JSON_DEPTH)));
  assert.throws(() => parseJsonBody(nested(MAX_JSON_DEPTH + 1)), { code: 'VALIDATION_ERROR' });
  const inStrings = JSON.stringify({ a: '['.repeat(1000), b: '\\"[[[', c: ['{'.repeat(500)] });
  assert.doesNotThrow(() => parseJsonBody(Buffer.from(inStrings)));
});

test('body limits read as people write them', () => {
  assert.equal(formatBytes(1024 * 1024), '1 MiB');
  assert.equal(formatBytes(100 * 1024 * 1024), '100 MiB');
  assert.equal(formatBytes(64 * 1024), '64 KiB');
  assert.equal(formatBytes(1500), '1,500 bytes');
});

test('a __proto__ key, written out or escaped, is 400 at its path (no prototype change by a merge)', () => {
  for (const [text, path] of [
    ['{"variables": {"__proto__": {"admin": true}}}', 'variables.__proto__'],
    ['{"a": [{"\\u005f_proto__": 1}]}', 'a[0].__proto__'],
    ['{"__proto__": null}', '__proto__'],
  ] as const) {
    assert.throws(
      () => parseJsonBody(Buffer.from(text)),
      (err: AppError) => {
        assert.equal(err.code, 'VALIDATION_ERROR', text);
        assert.equal(err.path, path, text);
        return true;
      },
    );
  }
  assert.deepEqual(parseJsonBody(Buffer.from('{"proto": "__proto", "x": "\\u0041"}')), { proto: '__proto', x: 'A' });
});
