import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { outputOf } from './serve-process.ts';
import { resetSocket, startTcpProxy } from './tcp-proxy.ts';

const PROXY = fileURLToPath(new URL('./tcp-proxy.ts', import.meta.url));

/**
 * A process that ends one socket the way the proxy once did: written to, ended (its shutdown
 * under way), then reset. `how` is 'resetSocket' (ours) or 'resetAndDestroy' (Node's, alone).
 * Answers whether the process exited within `withinMs`, and what it printed; a process still
 * running then is killed.
 */
function endThenReset(how: 'resetSocket' | 'resetAndDestroy', withinMs: number) {
  const script = `
    import net from 'node:net';
    import { resetSocket } from ${JSON.stringify(PROXY)};
    const server = net.createServer((socket) => {
      socket.on('error', (e) => console.log('error', e.code));
      socket.write('x');
      socket.end();
      process.nextTick(() => {
        ${how === 'resetSocket' ? 'resetSocket(socket)' : 'socket.resetAndDestroy()'};
        server.close();
      });
    });
    server.listen(0, '127.0.0.1', () => {
      const c = net.connect(server.address().port, '127.0.0.1');
      c.on('error', () => {});
      c.resume();
      c.on('end', () => c.destroy());
    });`;
  return new Promise<{ exited: boolean; code: number | null; out: string }>((resolve) => {
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = outputOf(child);
    const timer = setTimeout(() => child.kill('SIGKILL'), withinMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ exited: signal === null, code, out: out() });
    });
  });
}

describe('the test TCP proxy', () => {
  it('resets a socket whose shutdown is under way without leaving its process unable to exit', async () => {
    const [ours, nodes] = await Promise.all([
      endThenReset('resetSocket', 8_000),
      endThenReset('resetAndDestroy', 3_000),
    ]);
    assert.ok(ours.exited, `the process did not exit: ${ours.out}`);
    assert.equal(ours.code, 0, ours.out);
    // The control: Node's own reset, in the same place, leaks the handle (the reset fails with
    // EINVAL) and the process never exits. When this fails, Node has fixed it and resetSocket's
    // workaround can go.
    assert.ok(!nodes.exited, `resetAndDestroy alone no longer hangs the process (code ${nodes.code}): ${nodes.out}`);
    assert.match(nodes.out, /error EINVAL/);
  });

  it('a cut still resets a live connection: the client sees ECONNRESET, not an end', async () => {
    const upstream = net.createServer((s) => s.resume());
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: (upstream.address() as net.AddressInfo).port });
    try {
      const client = net.connect(proxy.port, '127.0.0.1');
      await new Promise<void>((r) => client.once('connect', () => r()));
      client.write('hello');
      await new Promise((r) => setTimeout(r, 50));
      const ended = new Promise<string>((resolve) => {
        client.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
        client.once('end', () => resolve('end'));
      });
      proxy.cut();
      assert.equal(await ended, 'ECONNRESET');
      client.destroy();
    } finally {
      await proxy.close();
      await new Promise((r) => upstream.close(r));
    }
  });

  it('resetSocket destroys a socket that is already ending (a FIN, no reset to fail)', async () => {
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const accepted = new Promise<net.Socket>((r) => server.once('connection', r));
    const client = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
    client.on('error', () => {});
    const socket = await accepted;
    const errors: string[] = [];
    socket.on('error', (e: NodeJS.ErrnoException) => errors.push(String(e.code)));
    socket.end();
    resetSocket(socket);
    await new Promise((r) => socket.once('close', r));
    assert.deepEqual(errors, []);
    client.destroy();
    await new Promise((r) => server.close(r));
  });
});
