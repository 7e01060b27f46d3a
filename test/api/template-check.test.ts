import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countRenders } from '../../store/renders-repo.ts';
import { movie, templateBody } from './docs.ts';
import { client, eachBackend, newAccount, startApp } from './helpers.ts';

type Check = {
  valid: boolean;
  errors: { code: string; path?: string; docsUrl: string }[];
  warnings: { code: string; path: string }[];
  variables: Record<string, unknown>;
};

test('POST /v1/templates/check and GET /v1/renders/{id}/movie', async (t) => {
  await eachBackend(t, async (t, db) => {
    const app = await startApp(db);
    t.after(() => app.close());

    await t.test('check: the findings a template write would answer, nothing stored', async () => {
      const acc = await newAccount(db);
      const api = client(app, acc.key);
      const ok = await api('POST', '/v1/templates/check', { body: templateBody() });
      assert.equal(ok.statusCode, 200);
      assert.deepEqual(ok.json<Check>(), {
        valid: true,
        errors: [],
        warnings: [],
        variables: { name: { type: 'string', default: 'world' } },
      });
      const bad = templateBody();
      (bad.scenes as { duration: number }[])[0]!.duration = -1;
      const res = (await api('POST', '/v1/templates/check', { body: bad })).json<Check>();
      assert.equal(res.valid, false);
      assert.deepEqual(
        res.errors.map((e) => [e.code, e.path]),
        [['VALIDATION_ERROR', 'scenes[0].duration']],
      );
      // The same finding as the write itself answers.
      const write = await api('POST', '/v1/templates', { name: 'x', body: bad });
      assert.equal(write.statusCode, 400);
      assert.deepEqual(
        write.json<{ errors: unknown[] }>().errors.map((e) => ({ ...(e as object) })),
        res.errors.map((e) => ({ ...e })),
      );
      const unused = templateBody({ variables: { name: { type: 'string' }, extra: { type: 'number', default: 1 } } });
      const warned = (await api('POST', '/v1/templates/check', { body: unused })).json<Check>();
      assert.deepEqual(
        warned.warnings.map((w) => [w.code, w.path]),
        [['VARIABLE_UNUSED', 'variables.extra']],
      );
      // A character no bundled font draws: a warning at the text (templates.test.ts: the write's).
      const thai = templateBody();
      (thai.scenes as { elements: { text: string }[] }[])[0]!.elements[0]!.text = 'Hello {{name}} สวัสดี';
      const glyphs = (await api('POST', '/v1/templates/check', { body: thai })).json<Check>();
      assert.equal(glyphs.valid, true);
      assert.deepEqual(
        glyphs.warnings.map((w) => [w.code, w.path]),
        [['TEXT_GLYPH_MISSING', 'scenes[0].elements[0].text']],
      );
      // With values: what a render of it would answer.
      const typed = templateBody({ variables: { n: { type: 'number', default: 1 } } });
      (typed.scenes as { elements: { text: string }[] }[])[0]!.elements[0]!.text = 'Count {{n}}';
      const mismatch = (
        await api('POST', '/v1/templates/check', { body: typed, variables: { n: 'many' } })
      ).json<Check>();
      assert.equal(mismatch.valid, false);
      assert.equal(mismatch.errors[0]?.code, 'VARIABLE_TYPE_MISMATCH');
      assert.equal(
        (await api('POST', '/v1/templates/check', { body: typed, variables: { n: 3 } })).json<Check>().valid,
        true,
      );
      assert.equal((await api('GET', '/v1/templates')).json<{ total: number }>().total, 0, 'nothing stored');
    });

    await t.test('check: bad requests get the catalogue code at the exact path', async () => {
      const acc = await newAccount(db);
      const api = client(app, acc.key);
      for (const [body, path] of [
        [{}, 'body'],
        [{ body: [] }, 'body'],
        [{ body: templateBody(), extra: 1 }, 'extra'],
        [{ body: templateBody(), variables: [] }, 'variables'],
      ] as const) {
        const res = await api('POST', '/v1/templates/check', body);
        assert.equal(res.statusCode, 400, JSON.stringify(body));
        assert.equal(res.json<{ error: { code: string; path: string } }>().error.path, path, JSON.stringify(body));
      }
      assert.equal((await client(app, null)('POST', '/v1/templates/check', { body: templateBody() })).statusCode, 401);
    });

    await t.test("a render's movie: the resolved document, owner only", async () => {
      const acc = await newAccount(db, { credits: 100 });
      const other = await newAccount(db);
      const api = client(app, acc.key);
      const doc = movie();
      const created = await api('POST', '/v1/renders', { movie: doc });
      assert.equal(created.statusCode, 201);
      const { id } = created.json<{ id: string }>();
      const got = await api('GET', `/v1/renders/${id}/movie`);
      assert.equal(got.statusCode, 200);
      assert.deepEqual(got.json(), doc);
      // Sent back as `movie`, it makes the same render again.
      const before = await countRenders(db.sql, acc.accountId);
      const again = await api('POST', '/v1/renders', { movie: got.json() });
      assert.equal(again.statusCode, 201, again.body);
      assert.equal(await countRenders(db.sql, acc.accountId), before + 1);
      const theirs = await client(app, other.key)('GET', `/v1/renders/${id}/movie`);
      assert.equal(theirs.statusCode, 404);
      assert.equal(theirs.json<{ error: { code: string } }>().error.code, 'NOT_FOUND');
      assert.equal((await api('GET', '/v1/renders/rnd_nope/movie')).statusCode, 404);
    });
  });
});
