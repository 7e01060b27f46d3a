import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { bundledEntry } from '../bundled-entry.ts';
import { processAlive } from './alive.ts';
import type { FixtureRequest } from './supervised-child.fixture.ts';
import { ChildCallError, ChildExitedError, SupervisedChild, type SupervisedChildOptions } from './supervised-child.ts';

const FIXTURE = fileURLToPath(new URL('./supervised-child.fixture.ts', import.meta.url));
const PARENT = fileURLToPath(new URL('./supervised-child-parent.fixture.ts', import.meta.url));

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
process.on('unhandledRejection', onUnhandled);
after(() => process.off('unhandledRejection', onUnhandled));

let entry: string;
before(async () => {
  entry = await bundledEntry(FIXTURE);
});

const children: SupervisedChild<FixtureRequest, number, string>[] = [];
after(() => {
  for (const c of children) c.kill();
});
function start(options: Partial<SupervisedChildOptions> = {}) {
  const child = new SupervisedChild<FixtureRequest, number, string>({
    name: 'fixture child',
    module: entry,
    ...options,
  });
  children.push(child);
  return child;
}

describe('SupervisedChild', () => {
  it('is starting, then ready, then exited with its code and signal once its channel is closed', async () => {
    const child = start();
    assert.equal(child.state, 'starting');
    assert.equal(child.exit, undefined);
    await child.ready;
    assert.equal(child.state, 'ready');
    assert.equal(child.connected, true);
    assert.equal(typeof child.pid, 'number');
    child.disconnect();
    const exit = await child.exited;
    assert.equal(child.state, 'exited');
    assert.deepEqual(exit, { code: 0, signal: null, stderr: '' });
    assert.equal(processAlive(child.pid as number), false);
  });

  it('sends calls made while it starts once it is ready', async () => {
    const child = start({ env: { ...process.env, FIXTURE_READY_AFTER_MS: '300' } });
    const answer = child.call({ op: 'echo', value: 7 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(child.state, 'starting');
    assert.equal(await answer, 7);
    assert.equal(child.state, 'ready');
  });

  it('answers concurrent calls each with its own reply and events, whatever order they end in', async () => {
    const child = start();
    const events = new Map<number, string[]>();
    // The first call sent answers last.
    const calls = Array.from({ length: 20 }, (_, i) => {
      events.set(i, []);
      return child.call(
        { op: 'echo', value: i, delayMs: (20 - i) * 10, events: i % 4 },
        { onEvent: (e) => events.get(i)?.push(e) },
      );
    });
    const order: number[] = [];
    for (const c of calls) void c.then((v) => order.push(v));
    assert.deepEqual(
      await Promise.all(calls),
      Array.from({ length: 20 }, (_, i) => i),
    );
    assert.notDeepEqual(
      order,
      [...order].sort((a, b) => a - b),
      'the replies came out of order',
    );
    for (let i = 0; i < 20; i++) {
      assert.deepEqual(
        events.get(i),
        Array.from({ length: i % 4 }, (_, k) => `${i}.${k}`),
      );
    }
  });

  it('rejects a call the child answers with an error (its code and path) and goes on', async () => {
    const child = start();
    const err = await child.call({ op: 'fail', message: 'disk full', code: 'ENOSPC', path: '/a/b' }).then(
      () => assert.fail('resolved'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof ChildCallError);
    assert.equal(err.message, 'disk full');
    assert.equal(err.code, 'ENOSPC');
    assert.equal(err.path, '/a/b');
    assert.equal(await child.call({ op: 'echo', value: 3 }), 3);
  });

  it('rejects every waiting call when the child dies, naming it, its exit code and its stderr tail', async () => {
    const child = start();
    await child.ready;
    const waiting = [child.call({ op: 'hang' }), child.call({ op: 'hang' }), child.call({ op: 'hang' })];
    const crash = child.call({ op: 'crash', stderr: 'boom: the native side fell over\n', exitCode: 7 });
    const results = await Promise.allSettled([...waiting, crash]);
    for (const r of results) {
      assert.equal(r.status, 'rejected');
      const err = (r as PromiseRejectedResult).reason;
      assert.ok(err instanceof ChildExitedError, String(err));
      assert.equal(err.child, 'fixture child');
      assert.equal(err.exit.code, 7);
      assert.equal(err.exit.signal, null);
      assert.equal(
        err.message,
        `fixture child (pid ${child.pid}) exited (exit 7) before answering: boom: the native side fell over`,
      );
    }
    assert.equal(child.state, 'exited');
    assert.equal(child.exit?.stderr, 'boom: the native side fell over\n');
    // A call after the exit is rejected the same way, at once.
    await assert.rejects(child.call({ op: 'echo', value: 1 }), ChildExitedError);
  });

  it('keeps only the end of stderr', async () => {
    const child = start({ stderrChars: 1000 });
    const stderr = `${'x'.repeat(200_000)}\nthe last line`;
    await assert.rejects(child.call({ op: 'crash', stderr, exitCode: 1 }), ChildExitedError);
    const tail = child.exit?.stderr ?? '';
    assert.equal(tail.length, 1000);
    assert.ok(tail === stderr.slice(-1000), `not the end of stderr: ...${tail.slice(-40)}`);
  });

  it('is exited when it dies before it is ready: ready rejects, and so does what waits', async () => {
    const child = start({ env: { ...process.env, FIXTURE_EXIT_AT_START: '3' } });
    const call = child.call({ op: 'echo', value: 1 });
    await assert.rejects(child.ready, (err: unknown) => err instanceof ChildExitedError && err.exit.code === 3);
    await assert.rejects(call, /exited \(exit 3\) before answering: fixture: cannot start/);
    assert.equal(child.state, 'exited');
  });

  it('surfaces a failed spawn (ENOENT) as an exit that rejects what waits', async () => {
    const child = start({ execPath: '/nonexistent/node' });
    const call = child.call({ op: 'echo', value: 1 });
    const exit = await child.exited;
    assert.equal(child.state, 'exited');
    assert.equal((exit.error as NodeJS.ErrnoException | undefined)?.code, 'ENOENT');
    assert.equal(exit.code, null);
    await assert.rejects(
      call,
      /^ChildExitedError: fixture child exited \(could not start: spawn \/nonexistent\/node ENOENT\)/,
    );
    await assert.rejects(child.ready, ChildExitedError);
  });

  it('surfaces an entry that could not be built as an exit', async () => {
    const child = start({ module: Promise.reject(new Error('esbuild: syntax error')) });
    const call = child.call({ op: 'echo', value: 1 });
    await assert.rejects(call, /could not start: esbuild: syntax error/);
    assert.equal(child.state, 'exited');
  });

  it('never starts a child killed before its entry is ready', async () => {
    let resolveEntry: (path: string) => void = () => {};
    const child = start({ module: new Promise<string>((resolve) => (resolveEntry = resolve)) });
    const call = child.call({ op: 'echo', value: 1 });
    child.kill();
    resolveEntry(entry);
    await assert.rejects(call, /could not start: killed before it started/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(child.pid, undefined);
  });

  it("kills the child on its AbortSignal and rejects what waits with the signal's reason", async () => {
    const controller = new AbortController();
    const child = start({ signal: controller.signal });
    await child.ready;
    const pid = child.pid as number;
    const waiting = [child.call({ op: 'hang' }), child.call({ op: 'hang' })];
    const reason = new Error('the render was cancelled');
    controller.abort(reason);
    for (const w of waiting) await assert.rejects(w, (err: unknown) => err === reason);
    await assert.rejects(child.call({ op: 'echo', value: 1 }), (err: unknown) => err === reason);
    const exit = await child.exited;
    assert.equal(exit.signal, 'SIGKILL');
    assert.equal(processAlive(pid), false);
  });

  it("kills the child on a call's AbortSignal: that call rejects with the reason, the others as the exit", async () => {
    const child = start();
    await child.ready;
    const controller = new AbortController();
    const aborted = child.call({ op: 'hang' }, { signal: controller.signal });
    const other = child.call({ op: 'hang' });
    controller.abort(new Error('stop'));
    await assert.rejects(aborted, /^Error: stop$/);
    await assert.rejects(other, (err: unknown) => err instanceof ChildExitedError && err.exit.signal === 'SIGKILL');
  });

  it('dies with its parent: a SIGKILLed parent takes the child with it', {
    skip: process.platform !== 'linux' ? 'the parent-death signal is Linux only' : false,
  }, async () => {
    // The child would stay without its parent (FIXTURE_OUTLIVE): only the death signal ends it.
    const parent = spawn(process.execPath, [await bundledEntry(PARENT), entry], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, FIXTURE_OUTLIVE: '1' },
    });
    let pid: number | undefined;
    try {
      pid = await new Promise<number>((resolve, reject) => {
        let out = '';
        parent.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('\n')) resolve(Number(out.trim()));
        });
        parent.once('exit', (code) => reject(new Error(`the parent exited (${code}) before its child was ready`)));
      });
      assert.equal(processAlive(pid), true);
      parent.kill('SIGKILL');
      const deadline = Date.now() + 5_000;
      while (processAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(processAlive(pid), false, `the child ${pid} outlived its SIGKILLed parent`);
    } finally {
      parent.kill('SIGKILL');
      // A failing run leaves nothing running.
      if (pid !== undefined && processAlive(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  it('left no unhandled rejection behind', async () => {
    // Rejections are reported after the microtask queue drains.
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(unhandled, []);
  });
});
