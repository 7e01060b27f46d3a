import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * `make soak`, short (issue 42): a minute of faults that leave things behind (serve and a worker
 * killed with SIGKILL mid-render, the object store away), then retention, then the count. The
 * soak exits 1 unless no render was lost or charged twice and nothing is left: no scratch file,
 * no object under any prefix, no row retention promises to remove. `make soak` runs it for 10
 * minutes with every fault at random (SOAK_MINUTES=30 for the long run).
 */
test('a short soak: nothing lost, nothing charged twice, nothing left after retention', {
  skip:
    process.env.TEST_REDIS_URL && process.env.TEST_S3_ENDPOINT
      ? false
      : 'needs TEST_REDIS_URL and TEST_S3_ENDPOINT (run through scripts/test.sh)',
  timeout: 600_000,
}, async () => {
  const { stdout } = await promisify(execFile)('node', ['--import', 'tsx', 'test/faults/soak.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      SOAK_MINUTES: '1',
      SOAK_SEED: '20261129',
      SOAK_CLIENTS: '2',
      SOAK_FAULTS: 'serve-kill,worker-kill,s3-refuse',
    },
    maxBuffer: 16 * 1024 * 1024,
  }).catch((err: { stdout?: string; stderr?: string; message: string }) => {
    assert.fail(`the soak failed:\n${err.stdout ?? ''}\n${err.stderr ?? err.message}`);
  });
  process.stdout.write(
    stdout
      .split('\n')
      .filter((l) => !l.startsWith('soak: 2'))
      .join('\n'),
  );
  assert.match(stdout, /faults injected: .*serve-kill [1-9]/);
  assert.match(stdout, /renders lost {9}0 /);
  assert.match(stdout, /renders charged twice 0 /);
  assert.match(stdout, /left after retention {2}0 /);
  const done = Number(/renders done +(\d+)/.exec(stdout)?.[1]);
  assert.ok(done >= 5, `${done} renders done`);
});
