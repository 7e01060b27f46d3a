import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { UNCAUGHT_EXCEPTION_MESSAGE, UNHANDLED_REJECTION_MESSAGE } from './logger.ts';

const LOGGER = new URL('./logger.ts', import.meta.url).href;

/** Runs `body` in a Node process with logProcessFailures installed; its exit status and JSON lines. */
function run(body: string): {
  status: number | null;
  entries: { level: number; msg: string; err?: { message: string }; warning?: { name: string; code?: string } }[];
  stdout: string;
  stderr: string;
} {
  const script = `import { createLogger, logProcessFailures } from ${JSON.stringify(LOGGER)};
logProcessFailures(createLogger({ name: 'test' }));
${body}`;
  const out = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  const entries = out.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
  return { status: out.status, entries, stdout: out.stdout, stderr: out.stderr };
}

describe('logProcessFailures', () => {
  it('logs an unhandled rejection at fatal level and the process goes on', () => {
    const { status, entries } = run(`Promise.reject(new Error('nobody handled me'));
setTimeout(() => process.stdout.write('{"level":30,"msg":"still here"}\\n'), 50);`);
    assert.equal(status, 0);
    assert.deepEqual(
      entries.map((e) => [e.level, e.msg, e.err?.message]),
      [
        [60, UNHANDLED_REJECTION_MESSAGE, 'nobody handled me'],
        [30, 'still here', undefined],
      ],
    );
  });

  it("logs a process warning as one JSON line at warn level, not Node's plain text on stderr", () => {
    // A real warning on every Node version: an emitter with more listeners than its limit.
    const { status, stdout, stderr, entries } = run(`import { EventEmitter } from 'node:events';
const e = new EventEmitter();
for (let i = 0; i < 11; i++) e.on('x', () => {});
setTimeout(() => {}, 50);`);
    assert.equal(status, 0);
    assert.equal(stderr, '', 'nothing printed outside the JSON log');
    for (const line of stdout.trimEnd().split('\n')) JSON.parse(line);
    assert.deepEqual(
      entries.map((e) => [e.level, e.warning?.name]),
      [[40, 'MaxListenersExceededWarning']],
    );
  });

  it('logs an uncaught exception at fatal level, and the process still exits', () => {
    const { status, entries } = run(`setTimeout(() => { throw new TypeError('a bug'); }, 10);
setTimeout(() => process.stdout.write('{"level":30,"msg":"still here"}\\n'), 200);`);
    assert.equal(status, 1);
    assert.deepEqual(
      entries.map((e) => [e.level, e.msg, e.err?.message]),
      [[60, UNCAUGHT_EXCEPTION_MESSAGE, 'a bug']],
    );
  });
});
