import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countRenders } from '../../store/renders-repo.ts';
import { MOVIE_ERROR_CASES, movie, templateBody, UNUSUAL_KEYS } from './docs.ts';
import { client, eachBackend, newAccount, startApp } from './helpers.ts';

type Body = Record<string, unknown> & { error: { code: string; path?: string } };

test('templates and template renders', async (t) => {
  await eachBackend(t, async (t, db) => {
    const app = await startApp(db);
    t.after(() => app.close());

    await t.test('create, get, list, update, delete', async () => {
      const acc = await newAccount(db, { plan: 'pro', credits: 100 });
      const api = client(app, acc.key);
      const created = await api('POST', '/v1/templates', { name: 'Greeting', body: templateBody() });
      assert.equal(created.statusCode, 201);
      const tpl = created.json();
      assert.match(String(tpl.id), /^tpl_/);
      assert.deepEqual(tpl.body, templateBody());
      assert.deepEqual(tpl.variables, { name: { type: 'string', default: 'world' } });
      assert.deepEqual(tpl.warnings, []);
      const got = (await api('GET', `/v1/templates/${tpl.id}`)).json();
      assert.equal('warnings' in got, false, 'warnings are never stored');
      const { warnings: _shown, ...stored } = tpl;
      assert.deepEqual(got, stored);
      const list = (await api('GET', '/v1/templates')).json();
      assert.equal(list.total, 1);
      assert.deepEqual(
        (list.items as { id: string }[]).map((x) => x.id),
        [tpl.id],
      );
      const renamed = await api('PUT', `/v1/templates/${tpl.id}`, { name: 'Hello' });
      assert.equal(renamed.statusCode, 200);
      assert.equal(renamed.json().name, 'Hello');
      assert.deepEqual(renamed.json().body, templateBody());
      // A declared but unused variable is a warning, shown on write only.
      const unused = templateBody({ variables: { name: { type: 'string' }, extra: { type: 'number', default: 1 } } });
      const replaced = await api('PUT', `/v1/templates/${tpl.id}`, { body: unused });
      assert.equal(replaced.statusCode, 200);
      const warnings = replaced.json().warnings as { code: string; path: string }[];
      assert.deepEqual(
        warnings.map((w) => [w.code, w.path]),
        [['VARIABLE_UNUSED', 'variables.extra']],
      );
      assert.deepEqual(Object.keys(replaced.json().variables as object).sort(), ['extra', 'name']);
      // So is a character no bundled font draws, at the text's path.
      const thai = templateBody();
      (thai.scenes as { elements: { text: string }[] }[])[0]!.elements[0]!.text = 'สวัสดี {{name}}';
      const thaiWrite = await api('PUT', `/v1/templates/${tpl.id}`, { body: thai });
      assert.equal(thaiWrite.statusCode, 200);
      assert.deepEqual(
        (thaiWrite.json().warnings as { code: string; path: string }[]).map((w) => [w.code, w.path]),
        [['TEXT_GLYPH_MISSING', 'scenes[0].elements[0].text']],
      );
      const del = await api('DELETE', `/v1/templates/${tpl.id}`);
      assert.equal(del.statusCode, 204);
      assert.equal(del.body, '');
      assert.equal((await api('GET', `/v1/templates/${tpl.id}`)).statusCode, 404);
      assert.equal((await api('DELETE', `/v1/templates/${tpl.id}`)).statusCode, 404);
    });

    const templateErrors = MOVIE_ERROR_CASES.filter(
      (c) => !['VARIABLE_MISSING', 'VARIABLE_TYPE_MISMATCH'].includes(c.code),
    );
    for (const c of templateErrors) {
      await t.test(`POST and PUT /templates: ${c.code} at ${c.path}`, async () => {
        const acc = await newAccount(db, { plan: 'pro' });
        const api = client(app, acc.key);
        const res = await api('POST', '/v1/templates', { name: 'x', body: c.doc });
        assert.equal(res.statusCode, 400);
        assert.equal(res.json<Body>().error.code, c.code);
        assert.equal(res.json<Body>().error.path, c.path);
        assert.equal((await api('GET', '/v1/templates')).json().total, 0);
        const tpl = (await api('POST', '/v1/templates', { name: 'ok', body: templateBody() })).json();
        const put = await api('PUT', `/v1/templates/${tpl.id}`, { body: c.doc });
        assert.equal(put.json<Body>().error.code, c.code);
        assert.deepEqual((await api('GET', `/v1/templates/${tpl.id}`)).json().body, templateBody());
      });
    }

    await t.test('unusual keys: the same quoted path in the template body, the request and the variables', async () => {
      const acc = await newAccount(db, { plan: 'pro', credits: 100 });
      const api = client(app, acc.key);
      const tpl = (await api('POST', '/v1/templates', { name: 'ok', body: templateBody() })).json();
      for (const { key, path } of UNUSUAL_KEYS) {
        const calls: [string, 'POST' | 'PUT', string, unknown, string, string][] = [
          ['body', 'POST', '/v1/templates', { name: 'x', body: templateBody({ [key]: 1 }) }, 'SCHEMA_INVALID', path],
          ['body', 'PUT', `/v1/templates/${tpl.id}`, { body: templateBody({ [key]: 1 }) }, 'SCHEMA_INVALID', path],
          ['request', 'POST', '/v1/templates', { name: 'x', body: templateBody(), [key]: 1 }, 'VALIDATION_ERROR', path],
          ['request', 'PUT', `/v1/templates/${tpl.id}`, { name: 'x', [key]: 1 }, 'VALIDATION_ERROR', path],
          [
            'render variables',
            'POST',
            `/v1/templates/${tpl.id}/renders`,
            { variables: { [key]: 1 } },
            'VALIDATION_ERROR',
            `variables${path}`,
          ],
          ['render request', 'POST', `/v1/templates/${tpl.id}/renders`, { [key]: 1 }, 'VALIDATION_ERROR', path],
        ];
        for (const [where, method, url, body, code, want] of calls) {
          const res = await api(method, url, body);
          assert.equal(res.statusCode, 400, res.body);
          const error = res.json<Body>().error;
          assert.deepEqual([error.code, error.path], [code, want], `${method} ${where} ${JSON.stringify(key)}`);
        }
      }
      assert.equal((await api('GET', '/v1/templates')).json().total, 1);
    });

    const bodyErrors: [string, string, unknown, string][] = [
      ['POST', 'missing name', { body: templateBody() }, 'name'],
      ['POST', 'empty name', { name: '', body: templateBody() }, 'name'],
      ['POST', 'missing body', { name: 'x' }, 'body'],
      ['POST', 'unknown field', { name: 'x', body: templateBody(), variables: {} }, 'variables'],
      ['PUT', 'neither name nor body', {}, ''],
      ['PUT', 'body not an object', { body: [] }, 'body'],
    ];
    for (const [method, name, body, path] of bodyErrors) {
      await t.test(`${method} /templates VALIDATION_ERROR: ${name}`, async () => {
        const acc = await newAccount(db, { plan: 'pro' });
        const api = client(app, acc.key);
        const tpl = (await api('POST', '/v1/templates', { name: 'ok', body: templateBody() })).json();
        const url = method === 'POST' ? '/v1/templates' : `/v1/templates/${tpl.id}`;
        const res = await api(method as 'POST', url, body);
        assert.equal(res.statusCode, 400);
        assert.equal(res.json<Body>().error.code, 'VALIDATION_ERROR');
        assert.equal(res.json<Body>().error.path ?? '', path);
      });
    }

    await t.test('list paging and VALIDATION_ERROR on bad page_size', async () => {
      const acc = await newAccount(db, { plan: 'pro' });
      const api = client(app, acc.key);
      for (let i = 0; i < 3; i++) {
        await api('POST', '/v1/templates', { name: `t${i}`, body: templateBody() });
        // Newest first is by creation time, then by id: two made in one millisecond have ids in
        // random order (their random part), so each gets a millisecond of its own.
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      const page = (await api('GET', '/v1/templates?page=2&page_size=2')).json();
      assert.deepEqual(
        [page.total, page.page, page.pageSize, page.hasMore, (page.items as unknown[]).length],
        [3, 2, 2, false, 1],
      );
      assert.equal((page.items as { name: string }[])[0]?.name, 't0');
      const bad = await api('GET', '/v1/templates?page_size=500');
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json<Body>().error.path, 'page_size');
    });

    await t.test('other accounts and test keys get NOT_FOUND', async () => {
      const a = await newAccount(db, { plan: 'pro', credits: 100 });
      const b = await newAccount(db, { plan: 'pro', credits: 100 });
      const aTest = await import('../../api/auth/provision.ts').then((m) => m.issueKey(db.sql, a.accountId, 'test'));
      const tpl = (await client(app, a.key)('POST', '/v1/templates', { name: 'x', body: templateBody() })).json();
      for (const key of [b.key, aTest.secret]) {
        const api = client(app, key);
        assert.equal((await api('GET', `/v1/templates/${tpl.id}`)).statusCode, 404);
        assert.equal((await api('PUT', `/v1/templates/${tpl.id}`, { name: 'y' })).statusCode, 404);
        assert.equal((await api('POST', `/v1/templates/${tpl.id}/renders`, {})).statusCode, 404);
        assert.equal((await api('DELETE', `/v1/templates/${tpl.id}`)).statusCode, 404);
        assert.equal((await api('GET', '/v1/templates')).json().total, 0);
      }
    });

    await t.test('template renders: variables, draft, templateId, renders outlive the template', async () => {
      const acc = await newAccount(db, { plan: 'pro', credits: 100 });
      const api = client(app, acc.key);
      const tpl = (await api('POST', '/v1/templates', { name: 'x', body: templateBody() })).json();
      const res = await api('POST', `/v1/templates/${tpl.id}/renders`, { variables: { name: 'Ada' }, draft: true });
      assert.equal(res.statusCode, 201, res.body);
      const r = res.json();
      assert.equal(r.templateId, tpl.id);
      assert.equal(r.draft, true);
      assert.equal(r.watermark, true);
      assert.equal((await api('DELETE', `/v1/templates/${tpl.id}`)).statusCode, 204);
      const after = (await api('GET', `/v1/renders/${r.id}`)).json();
      assert.equal(after.templateId, tpl.id);
    });

    await t.test('template renders: same gating and idempotency as POST /renders', async () => {
      const trial = await newAccount(db, { plan: 'trial', credits: 300 });
      const api = client(app, trial.key);
      const tpl = (await api('POST', '/v1/templates', { name: 'x', body: templateBody() })).json();
      const url = `/v1/templates/${tpl.id}/renders`;
      const hook = await api('POST', url, { webhook_url: 'https://hooks.example.com/' });
      assert.equal(hook.statusCode, 403);
      assert.equal(hook.json<Body>().error.code, 'WEBHOOKS_NOT_ALLOWED');
      const wrongType = await api('POST', url, { variables: { name: { nested: true } } });
      assert.equal(wrongType.statusCode, 400);
      assert.equal(wrongType.json<Body>().error.code, 'VARIABLE_TYPE_MISMATCH');
      const undeclared = await api('POST', url, { variables: { other: 'x' } });
      assert.equal(undeclared.json<Body>().error.code, 'VALIDATION_ERROR');
      assert.equal(undeclared.json<Body>().error.path, 'variables.other');
      const key = { 'idempotency-key': 'tpl-1' };
      const results = await Promise.all(Array.from({ length: 5 }, () => api('POST', url, {}, key)));
      assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 200, 200, 200, 201]);
      assert.equal((await api('POST', url, { draft: true }, key)).statusCode, 409);
      // The same key on another endpoint is a different request.
      assert.equal((await api('POST', '/v1/renders', { movie: movie() }, key)).statusCode, 409);
      // Trial cap is 1: a second render is refused, nothing stored.
      const capped = await api('POST', url, {});
      assert.equal(capped.statusCode, 429);
      assert.equal(capped.json<Body>().error.code, 'CONCURRENCY_LIMIT');
      assert.equal(await countRenders(db.sql, trial.accountId), 1);
    });

    await t.test('template renders: VARIABLE_MISSING when no value and no default', async () => {
      const acc = await newAccount(db, { plan: 'pro', credits: 100 });
      const api = client(app, acc.key);
      const body = templateBody({ variables: { name: { type: 'string' } } });
      const tpl = (await api('POST', '/v1/templates', { name: 'x', body })).json();
      const res = await api('POST', `/v1/templates/${tpl.id}/renders`, {});
      assert.equal(res.statusCode, 400);
      assert.equal(res.json<Body>().error.code, 'VARIABLE_MISSING');
      assert.equal(res.json<Body>().error.path, 'scenes[0].elements[0].text');
      const credits = await api('POST', `/v1/templates/${tpl.id}/renders`, { variables: { name: 'x' } });
      assert.equal(credits.statusCode, 201);
    });

    await t.test('template renders: INSUFFICIENT_CREDITS', async () => {
      const acc = await newAccount(db, { plan: 'pro', credits: 0 });
      const api = client(app, acc.key);
      const tpl = (await api('POST', '/v1/templates', { name: 'x', body: templateBody() })).json();
      const res = await api('POST', `/v1/templates/${tpl.id}/renders`, {});
      assert.equal(res.statusCode, 402);
      assert.equal(res.json<Body>().error.code, 'INSUFFICIENT_CREDITS');
    });
  });
});
