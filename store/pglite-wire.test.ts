import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import { serveWire, type WireServer } from './pglite-wire.ts';

let db: PGlite;
let server: WireServer;
const clients: postgres.Sql[] = [];

function client(options: postgres.Options<Record<string, never>> = {}): postgres.Sql {
  const sql = postgres(`postgres://postgres@${server.address}/postgres`, { max: 1, onnotice: () => {}, ...options });
  clients.push(sql);
  return sql;
}

before(async () => {
  db = await PGlite.create();
  await db.exec('CREATE TABLE items (n int)');
  server = await serveWire(db, { host: '127.0.0.1', maxConnections: 8 });
});

after(async () => {
  await Promise.all(clients.map((c) => c.end({ timeout: 1 })));
  await server.close();
  await db.close();
});

test('pipelined queries on one connection come back in order, an error in between hurts no other', async () => {
  const sql = client();
  const results = await Promise.allSettled(
    Array.from({ length: 300 }, (_, i) => (i === 150 ? sql`SELECT 1/0` : sql<{ v: number }[]>`SELECT ${i}::int AS v`)),
  );
  results.forEach((r, i) => {
    if (i === 150) {
      assert.equal(r.status, 'rejected');
      assert.match(String((r as PromiseRejectedResult).reason), /division by zero/);
    } else {
      assert.equal(r.status === 'fulfilled' && (r.value as { v: number }[])[0]?.v, i);
    }
  });
});

test('a message split over many TCP reads (a 2 MB parameter) arrives whole', async () => {
  const sql = client();
  const big = 'x'.repeat(2 * 1024 * 1024);
  const [row] = await sql<{ n: number }[]>`SELECT length(${big}::text)::int AS n`;
  assert.equal(row?.n, big.length);
});

test('an SSL request is declined and the client goes on in plain text', async () => {
  const sql = client({ ssl: 'prefer' });
  const [row] = await sql<{ ok: number }[]>`SELECT 1 AS ok`;
  assert.equal(row?.ok, 1);
});

test("an open transaction runs alone: another connection's query waits for its commit", async () => {
  const a = client();
  const b = client();
  await b`SELECT 1`;
  const order: string[] = [];
  let seenByB: number | undefined;
  let bDone: Promise<void> | undefined;
  await a.begin(async (tx) => {
    await tx`INSERT INTO items VALUES (1)`;
    // B asks while A's transaction is open. Run in A's session it would see the uncommitted row
    // and run inside A's transaction; it must wait instead.
    bDone = b<{ c: number }[]>`SELECT count(*)::int AS c FROM items`.then(([r]) => {
      order.push('b');
      seenByB = r?.c;
    });
    await new Promise((r) => setTimeout(r, 150));
    order.push('a commits');
  });
  await bDone;
  assert.deepEqual(order, ['a commits', 'b']);
  assert.equal(seenByB, 1);
  await a`DELETE FROM items`;
});

test('a connection that drops mid-transaction is rolled back and the others go on', async () => {
  const b = client();
  // A raw connection: startup, BEGIN and an INSERT, then gone without COMMIT.
  const socket = connect(Number(server.address.split(':')[1]), '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const startupBody = Buffer.from('\0\x03\0\0user\0postgres\0database\0postgres\0\0', 'binary');
  const startup = Buffer.alloc(4 + startupBody.length);
  startup.writeInt32BE(startup.length);
  startupBody.copy(startup, 4);
  const text = Buffer.from('BEGIN; INSERT INTO items VALUES (42);\0');
  const query = Buffer.alloc(5 + text.length);
  query.write('Q');
  query.writeInt32BE(4 + text.length, 1);
  text.copy(query, 5);
  socket.write(Buffer.concat([startup, query]));
  // Wait until the insert ran (two ReadyForQuery: after startup and after the query).
  await new Promise<void>((resolve) => {
    let seen = Buffer.alloc(0);
    socket.on('data', (d: Buffer) => {
      seen = Buffer.concat([seen, d]);
      if (seen.toString('binary').split('Z\0\0\0\x05').length - 1 >= 2) resolve();
    });
  });
  const waiting = b<{ c: number }[]>`SELECT count(*)::int AS c FROM items`;
  socket.destroy();
  const [row] = await waiting;
  assert.equal(row?.c, 0, 'the dropped transaction was rolled back before B ran');
});

test('a malformed message closes that connection only', async () => {
  const b = client();
  await b`SELECT 1`;
  const socket = connect(Number(server.address.split(':')[1]), '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  // A startup message whose length (-1) could never be consumed.
  socket.write(Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 3, 0, 0]));
  await closed;
  const [row] = await b<{ ok: number }[]>`SELECT 2 AS ok`;
  assert.equal(row?.ok, 2);
});
