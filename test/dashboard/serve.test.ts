// The dashboard's files as the API serves them (no browser): the page, its bundle built from the
// sources on the first request, the security headers, and what is not served.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { DASHBOARD_FILES } from '../../api/dashboard/files.ts';
import { contentSecurityPolicy } from '../../api/dashboard/routes.ts';
import { eachBackend, startApp } from '../api/helpers.ts';

test('GET /dashboard and its files', async (t) => {
  await eachBackend(t, async (t, db) => {
    const app = await startApp(db);
    t.after(() => app.close());

    await t.test('the page and every file, with the security headers', async () => {
      const page = await app.inject({ method: 'GET', url: '/dashboard' });
      assert.equal(page.statusCode, 200);
      assert.match(page.headers['content-type'] as string, /^text\/html/);
      assert.match(page.body, /<script type="module" src="\/dashboard\/app\.js"><\/script>/);
      assert.equal((await app.inject({ method: 'GET', url: '/dashboard/' })).statusCode, 200);
      for (const name of DASHBOARD_FILES.filter((n) => n !== 'index.html')) {
        const res = await app.inject({ method: 'GET', url: `/dashboard/${name}` });
        assert.equal(res.statusCode, 200, name);
        assert.ok(res.rawPayload.length > 100, name);
        assert.equal(res.headers['content-security-policy'], contentSecurityPolicy('http://api.test', false));
        assert.equal(res.headers['x-frame-options'], 'DENY');
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        assert.equal(res.headers['referrer-policy'], 'no-referrer');
        assert.ok(res.headers['x-request-id']);
      }
      const js = await app.inject({ method: 'GET', url: '/dashboard/app.js' });
      assert.match(js.headers['content-type'] as string, /^text\/javascript/);
      // Bundled, minified, with no module left to fetch and nothing of TypeBox (types only).
      assert.doesNotMatch(js.body, /^import |from"\.|sinclair/m);
      assert.doesNotMatch(js.body, /new Function|eval\(/, 'nothing the CSP would refuse');
    });

    await t.test('anything else under /dashboard is the JSON 404; other methods 405', async () => {
      for (const url of [
        '/dashboard/index.html',
        '/dashboard/nope.js',
        '/dashboard/..%2Fpackage.json',
        '/dashboard/a/b',
      ]) {
        const res = await app.inject({ method: 'GET', url });
        assert.equal(res.statusCode, 404, url);
        assert.equal(res.json().error.code, 'NOT_FOUND', url);
      }
      const post = await app.inject({ method: 'POST', url: '/dashboard' });
      assert.equal(post.statusCode, 405);
      assert.equal(post.headers.allow, 'GET, HEAD');
    });

    await t.test('the page is not API: absent from the OpenAPI document', async () => {
      const doc = (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as { paths: object };
      assert.ok(!Object.keys(doc.paths).some((p) => p.startsWith('/dashboard')));
    });
  });
});

test('the Content-Security-Policy', () => {
  const csp = contentSecurityPolicy('https://render.example.com/base', false);
  assert.equal(
    csp,
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https://render.example.com; media-src 'self' https://render.example.com blob:; connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  );
  // With S3, a download link redirects to the bucket: media and images (only) may come from there.
  const s3 = contentSecurityPolicy('http://localhost:8080', true);
  assert.match(s3, /media-src 'self' http:\/\/localhost:8080 https: http: blob:;/);
  assert.match(s3, /img-src 'self' http:\/\/localhost:8080 https: http:;/);
  assert.match(s3, /script-src 'self';/);
});

test('the build (make build) holds the same files as the sources give', {
  skip: !existsSync('dist/dashboard') && 'no build: run make build',
}, async () => {
  for (const name of DASHBOARD_FILES) assert.ok(existsSync(`dist/dashboard/${name}`), name);
  assert.equal(await readFile('dist/dashboard/index.html', 'utf8'), await readFile('dashboard/index.html', 'utf8'));
});
