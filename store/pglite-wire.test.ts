import assert from 'node:assert/strict';
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { after, before, test } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import { serveWire, type WireServer } from './pglite-wire.ts';

let db: PGlite;
let server: WireServer;
const clients: postgres.Sql[] = [];
const PASSWORD = randomBytes(16).toString('hex');

function client(options: postgres.Options<Record<string, never>> = {}): postgres.Sql {
  const sql = postgres(`postgres://postgres:${PASSWORD}@${server.address}/postgres`, {
    max: 1,
    onnotice: () => {},
    ...options,
  });
  clients.push(sql);
  return sql;
}

/** A protocol message: type byte, length, body. */
function message(type: string, body: Buffer | string): Buffer {
  const data = Buffer.from(body as string);
  const out = Buffer.alloc(5 + data.length);
  out.write(type);
  out.writeInt32BE(4 + data.length, 1);
  data.copy(out, 5);
  return out;
}

function startupMessage(): Buffer {
  const body = Buffer.from('\0\x03\0\0user\0postgres\0database\0postgres\0\0', 'binary');
  const out = Buffer.alloc(4 + body.length);
  out.writeInt32BE(out.length);
  body.copy(out, 4);
  return out;
}

/** A hand-driven connection: what it received so far, and a wait for a message of some type. */
class Raw {
  received = Buffer.alloc(0);
  private constructor(readonly socket: Socket) {
    socket.on('data', (d: Buffer) => {
      this.received = Buffer.concat([this.received, d]);
      socket.emit('received');
    });
  }

  static async open(): Promise<Raw> {
    const socket = connect(Number(server.address.split(':')[1]), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    return new Raw(socket);
  }

  /** The messages received, as [type, body]. */
  messages(): [string, Buffer][] {
    const out: [string, Buffer][] = [];
    for (let at = 0; this.received.length - at >= 5; ) {
      const end = at + 1 + this.received.readInt32BE(at + 1);
      if (end > this.received.length) break;
      out.push([String.fromCharCode(this.received[at] as number), this.received.subarray(at + 5, end)]);
      at = end;
    }
    return out;
  }

  /** Waits until `count` messages of `type` have arrived in all; returns the last one's body. */
  async waitFor(type: string, count = 1): Promise<Buffer> {
    for (;;) {
      const seen = this.messages().filter(([t]) => t === type);
      if (seen.length >= count) return (seen[count - 1] as [string, Buffer])[1];
      if (this.socket.destroyed) throw new Error(`closed before ${type}`);
      await new Promise((resolve) => {
        this.socket.once('received', resolve);
        this.socket.once('close', resolve);
      });
    }
  }

  /** Startup and SCRAM-SHA-256 as a client does it, up to the first ReadyForQuery. */
  async login(password = PASSWORD): Promise<void> {
    this.socket.write(startupMessage());
    await this.waitFor('R', 1);
    const nonce = randomBytes(18).toString('base64');
    const first = `n=*,r=${nonce}`;
    const initial = Buffer.concat([Buffer.from('SCRAM-SHA-256\0'), Buffer.alloc(4), Buffer.from(`n,,${first}`)]);
    initial.writeInt32BE(first.length + 3, 14);
    this.socket.write(message('p', initial));
    const serverFirst = (await this.waitFor('R', 2)).toString('utf8', 4);
    const attrs = Object.fromEntries(serverFirst.split(',').map((kv) => [kv[0], kv.slice(2)]));
    const salted = pbkdf2Sync(password, Buffer.from(attrs.s as string, 'base64'), Number(attrs.i), 32, 'sha256');
    const clientKey = createHmac('sha256', salted).update('Client Key').digest();
    const storedKey = createHash('sha256').update(clientKey).digest();
    const withoutProof = `c=biws,r=${attrs.r}`;
    const signature = createHmac('sha256', storedKey).update(`${first},${serverFirst},${withoutProof}`).digest();
    const proof = Buffer.from(clientKey.map((b, i) => b ^ (signature[i] as number)));
    this.socket.write(message('p', `${withoutProof},p=${proof.toString('base64')}`));
    await this.waitFor('Z', 1);
  }
}

before(async () => {
  db = await PGlite.create();
  await db.exec('CREATE TABLE items (n int)');
  server = await serveWire(db, { host: '127.0.0.1', maxConnections: 16, password: PASSWORD });
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
  // A raw connection: BEGIN and an INSERT, then gone without COMMIT.
  const raw = await Raw.open();
  await raw.login();
  raw.socket.write(message('Q', 'BEGIN; INSERT INTO items VALUES (42);\0'));
  // Wait until the insert ran (the second ReadyForQuery).
  await raw.waitFor('Z', 2);
  const waiting = b<{ c: number }[]>`SELECT count(*)::int AS c FROM items`;
  raw.socket.destroy();
  const [row] = await waiting;
  assert.equal(row?.c, 0, 'the dropped transaction was rolled back before B ran');
});

test('without the password nothing runs: a wrong one is refused, and so is a query instead of one', async () => {
  await assert.rejects(
    client({ pass: 'not-the-password' })`SELECT 1`,
    (err: { code?: string }) => err.code === '28P01',
  );
  const none = postgres(`postgres://postgres@${server.address}/postgres`, { max: 1, onnotice: () => {} });
  clients.push(none);
  await assert.rejects(none`SELECT 1`, (err: { code?: string }) => err.code === '28P01');
  // Straight to a query after the startup message, skipping authentication.
  const raw = await Raw.open();
  raw.socket.write(Buffer.concat([startupMessage(), message('Q', 'INSERT INTO items VALUES (7);\0')]));
  const error = await raw.waitFor('E');
  assert.match(error.toString(), /28000/);
  await new Promise((resolve) => (raw.socket.destroyed ? resolve(null) : raw.socket.once('close', resolve)));
  assert.deepEqual(
    raw.messages().map(([t]) => t),
    ['R', 'E'],
    'asked for SCRAM, then refused: no answer from the database',
  );
  // A right password works, and the refused INSERT never ran.
  const ok = client();
  const [row] = await ok<{ c: number }[]>`SELECT count(*)::int AS c FROM items WHERE n = 7`;
  assert.equal(row?.c, 0);
  await Promise.all([ok.end(), none.end()]);
});

test('NOTIFY on one connection reaches LISTEN on another (the session is shared)', async () => {
  const listener = client();
  const notifier = client();
  const heard: string[] = [];
  let arrived: () => void = () => {};
  await listener.listen('wire_test', (payload) => {
    heard.push(payload);
    arrived();
  });
  const twice = new Promise<void>((resolve) => {
    arrived = () => heard.length === 2 && resolve();
  });
  await notifier`SELECT pg_notify('wire_test', 'plain')`;
  await notifier.begin((tx) => tx`SELECT pg_notify('wire_test', 'at commit')`);
  await twice;
  assert.deepEqual(heard, ['plain', 'at commit']);
  await Promise.all([listener.end(), notifier.end()]);
});

test('an open protocol sequence (no Sync yet) keeps its turn; dropped, it is closed for the next', async () => {
  const b = client();
  await b`SELECT 1`;
  for (const end of ['sync', 'drop'] as const) {
    const raw = await Raw.open();
    await raw.login();
    // A Parse that fails, then Flush: the session skips everything up to the next Sync.
    raw.socket.write(Buffer.concat([message('P', '\0SELEC 1\0\0\0'), message('H', '')]));
    await raw.waitFor('E');
    let answered = false;
    const query = b<{ v: number }[]>`SELECT ${end === 'sync' ? 1 : 2}::int AS v`.then((rows) => {
      answered = true;
      return rows;
    });
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(answered, false, `B waits while the sequence is open (${end})`);
    if (end === 'sync') raw.socket.write(message('S', ''));
    else raw.socket.destroy();
    // Run inside the open sequence, B's messages would be skipped up to its Sync: no answer ever.
    const timeout = new Promise<undefined>((r) => setTimeout(() => r(undefined), 5000).unref());
    const [row] = (await Promise.race([query, timeout])) ?? [];
    assert.equal(row?.v, end === 'sync' ? 1 : 2, `B's own query ran, not skipped (${end})`);
    if (end === 'sync') {
      await raw.waitFor('Z', 2);
      raw.socket.destroy();
    }
  }
  await b.end();
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
