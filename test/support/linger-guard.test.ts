import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { outputOf } from '../services/serve-process.ts';

/**
 * The guard every test file runs under (scripts/test.sh --import): a file's process that stays
 * alive after its tests (a leaked timer, a busy loop) or runs past its limit (a hook waiting for
 * ever, a test spinning) ends, saying why and where, with the status the tests deserve. Run on
 * small files of each kind in a child `node --test`, with the waits shortened.
 */

const GUARD = fileURLToPath(new URL('./linger-guard.ts', import.meta.url));

const FILES = {
  clean: `import { test } from 'node:test';\ntest('passes', () => {});\n`,
  leakFailing: `import { test } from 'node:test';\ntest('fails and leaks', () => { setInterval(() => {}, 1000); throw new Error('no'); });\n`,
  failing: `import { test } from 'node:test';\ntest('fails', () => { throw new Error('as it should'); });\n`,
  holder: `import { spawn } from 'node:child_process';\nimport { test } from 'node:test';\ntest('leaves a process holding its stdout', () => { spawn('sleep', ['60'], { stdio: 'inherit', detached: true }).unref(); });\n`,
  leak: `import { test } from 'node:test';\ntest('leaks an interval', () => { setInterval(() => {}, 1000); });\n`,
  spinAfter: `import { test } from 'node:test';\nfunction spinForEver() { let x = 0; for (;;) x = (x + 1) % 7; }\ntest('starts a busy loop for after it ends', () => { setTimeout(spinForEver, 100); });\n`,
  hangingHook: `import { after, describe, it } from 'node:test';\ndescribe('a suite', () => {\n  it('passes', () => {});\n  after(() => new Promise(() => { setInterval(() => {}, 1000); }));\n});\n`,
  spinInTest: `import { test } from 'node:test';\nfunction spinInTest() { let x = 0; for (;;) x = (x + 1) % 7; }\ntest('spins', () => spinInTest());\n`,
};

let dir: string;

function run(name: keyof typeof FILES, env: NodeJS.ProcessEnv = {}) {
  return new Promise<{ code: number | null; out: string; ms: number }>((resolve, reject) => {
    const started = Date.now();
    // Without the variable that makes a nested \`node --test\` skip its files.
    const { NODE_TEST_CONTEXT: _, ...inherited } = process.env;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--import', GUARD, '--test', '--test-reporter=spec', path.join(dir, `${name}.test.ts`)],
      {
        env: { ...inherited, FW_TEST_LINGER_MS: '1000', FW_TEST_EXIT_GRACE_MS: '2000', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const out = outputOf(child);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out: out(), ms: Date.now() - started }));
  });
}

describe('the test files guard', { timeout: 90_000 }, () => {
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fw-linger-'));
    for (const [name, source] of Object.entries(FILES)) await writeFile(path.join(dir, `${name}.test.ts`), source);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('lets a file that ends with its tests end at once, and ends the ones that do not, as each deserves', async () => {
    const [clean, failing, holder, leak, leakFailing, spinAfter, hangingHook, spinInTest] = await Promise.all([
      run('clean'),
      run('failing'),
      run('holder'),
      run('leak'),
      run('leakFailing'),
      run('spinAfter'),
      run('hangingHook', { FW_TEST_FILE_LIMIT_MIN: '0.1' }),
      run('spinInTest', { FW_TEST_FILE_LIMIT_MIN: '0.1' }),
    ]);

    assert.equal(clean.code, 0, clean.out);
    assert.doesNotMatch(clean.out, /still running|limit/, 'no word from the guard');
    assert.ok(clean.ms < 10_000, `a clean file took ${clean.ms} ms`);

    // Ended as the drained loop is (process.exit() from 'beforeExit'), the statuses stay the runner's.
    assert.equal(failing.code, 1, failing.out);
    assert.match(failing.out, /✖ fails/);
    assert.doesNotMatch(failing.out, /still running|limit/, 'no word from the guard');

    // A process left holding the file's stdout would keep the runner waiting for it for a minute.
    assert.equal(holder.code, 0, holder.out);
    assert.match(holder.out, /left 1 process\(es\) running, killed: \d+ sleep 60/);
    assert.ok(holder.ms < 20_000, `the runner waited ${holder.ms} ms for a file that left a process`);

    // Idle with a leaked handle: named, and the tests' own status (they passed).
    assert.equal(leak.code, 0, leak.out);
    assert.match(leak.out, /still running 1 s after its tests ended; open: .*Timeout.*Exiting with the tests' status/);

    assert.equal(leakFailing.code, 1, leakFailing.out);
    assert.match(leakFailing.out, /still running 1 s after its tests ended/);

    // Busy after its tests: its own timer cannot fire; the watchdog thread says where it spins.
    assert.equal(spinAfter.code, 0, spinAfter.out);
    assert.match(
      spinAfter.out,
      /s after its tests ended; its main thread was busy in:\n\s+at spinForEver \(file:.*spinAfter\.test\.ts:\d+:\d+\)/,
    );

    // A hook that never ends, idle: past the limit it says what is open and fails.
    assert.notEqual(hangingHook.code, 0, hangingHook.out);
    assert.match(hangingHook.out, /past the limit of 0\.1 \(FW_TEST_FILE_LIMIT_MIN\); open: .*Exiting as failed/);

    // A test that spins: past the limit, its stack, killed, failed.
    assert.notEqual(spinInTest.code, 0, spinInTest.out);
    assert.match(
      spinInTest.out,
      /did not exit at its limit of 0\.1 minutes \(FW_TEST_FILE_LIMIT_MIN\); its main thread was busy in:\n\s+at spinInTest \(file:[\s\S]*\nExiting as failed/,
    );
  });
});
