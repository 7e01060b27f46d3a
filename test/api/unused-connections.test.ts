import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { test } from 'node:test';
import { backends, startApp } from './helpers.ts';

test('closing the app does not wait for connections that never sent a request', { timeout: 10_000 }, async (t) => {
  const db = await backends()[0]!.open();
  t.after(() => db.close());
  const app = await startApp(db);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const connect = async () => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    await new Promise((resolve) => socket.once('connect', resolve));
    return socket;
  };
  // What a browser does: a spare connection opened ahead of need, never used...
  const spare = await connect();
  const spareClosed = new Promise((resolve) => spare.once('close', resolve));
  // ...and one with a request in flight, which the drain must still answer.
  const busy = await connect();
  let answer = '';
  busy.on('data', (chunk) => {
    answer += chunk;
  });
  busy.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const started = Date.now();
  await app.close();
  await spareClosed;
  const took = Date.now() - started;
  assert.ok(took < 2_000, `close took ${took} ms (it waited for the unused connection)`);
  assert.match(answer, /^HTTP\/1\.1 200/);
  busy.destroy();
});
