import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import postgres from 'postgres';
import { startEmbeddedPostgres } from './pglite-server.ts';

async function tempDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fw-pglite-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('PGlite runs in its own thread: a long query does not stall this one', async (t) => {
  const pg = await startEmbeddedPostgres({ dataDir: path.join(await tempDir(t), 'pg'), maxConnections: 2 });
  const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
  t.after(async () => {
    await sql.end();
    await pg.stop();
  });
  await sql`SELECT 1`;
  // The longest gap between 5 ms ticks while the database computes. In this thread (the old
  // design) the gap was the whole query.
  let last = performance.now();
  let longestGap = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    longestGap = Math.max(longestGap, now - last);
    last = now;
  }, 5);
  const started = performance.now();
  const [row] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM generate_series(1, 2000000) AS g(i)
    WHERE i % 7 = 0`;
  const queryMs = performance.now() - started;
  clearInterval(tick);
  assert.equal(row?.n, 285714);
  assert.ok(queryMs > 150, `the query should take a while to prove anything (took ${queryMs.toFixed(0)} ms)`);
  assert.ok(
    longestGap < queryMs / 2,
    `this thread stalled ${longestGap.toFixed(0)} ms during a ${queryMs.toFixed(0)} ms query`,
  );
});

test('PGlite that cannot start says why, and leaves the directory unlocked', async (t) => {
  const dir = await tempDir(t);
  const notADirectory = path.join(dir, 'pg');
  await writeFile(notADirectory, 'not a database');
  await assert.rejects(
    startEmbeddedPostgres({ dataDir: notADirectory, maxConnections: 2 }),
    /embedded database failed to start/,
  );
  assert.equal(existsSync(`${notADirectory}.lock`), false, 'the lock is released');
});

test('PGlite stop flushes: what was written is there after a restart, and the lock is gone', async (t) => {
  const dataDir = path.join(await tempDir(t), 'pg');
  const first = await startEmbeddedPostgres({ dataDir, maxConnections: 2 });
  const a = postgres(first.url, { max: 1, onnotice: () => {} });
  await a`CREATE TABLE kept (v text)`;
  await a`INSERT INTO kept VALUES ('written before stop')`;
  await a.end();
  await first.stop();
  assert.equal(existsSync(`${dataDir}.lock`), false);
  const second = await startEmbeddedPostgres({ dataDir, maxConnections: 2 });
  const b = postgres(second.url, { max: 1, onnotice: () => {} });
  t.after(async () => {
    await b.end();
    await second.stop();
  });
  assert.deepEqual(
    (await b<{ v: string }[]>`SELECT v FROM kept`).map((r) => r.v),
    ['written before stop'],
  );
});
