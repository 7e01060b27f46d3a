/**
 * A render's scratch directory outlives a worker killed outright (no `finally` runs): the next
 * worker's sweep removes it, and leaves a live process's, another host's and a recent one made
 * without an owner note (lib/temp-dirs.ts). A real child process is made to own one and is
 * SIGKILLed.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { makeTempDir, removeTempDir, sweepStaleTempDirs } from '../../lib/temp-dirs.ts';

const root = mkdtempSync(join(tmpdir(), 'fw-temp-dirs-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A child that makes a scratch directory, says its path and waits to be killed. */
async function killedOwner(): Promise<string> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      `import('${join(process.cwd(), 'lib/temp-dirs.ts')}').then((m) => { console.log(m.makeTempDir('render', ${JSON.stringify(root)})); setInterval(() => {}, 1000); })`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const dir = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', () => reject(new Error('the child exited before making its directory')));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  return dir;
}

test('the sweep removes the scratch of dead processes of this host and keeps the rest', async () => {
  const dead = await killedOwner();
  writeFileSync(join(dead, 'tex-0.rgba'), Buffer.alloc(1024));
  assert.match(readFileSync(join(dead, '.owner'), 'utf8'), / \d+\n$/);
  const live = makeTempDir('still', root);
  const otherHost = makeTempDir('audio', root);
  writeFileSync(join(otherHost, '.owner'), 'another-host 1\n');
  const unownedOld = join(root, 'framewright-step-old');
  const unownedNew = join(root, 'framewright-step-new');
  mkdirSync(unownedOld);
  mkdirSync(unownedNew);
  const twoDaysAgo = new Date(Date.now() - 48 * 3_600_000);
  utimesSync(unownedOld, twoDaysAgo, twoDaysAgo);
  // Not ours at all: never looked at.
  const unrelated = join(root, 'something-else');
  mkdirSync(unrelated);
  utimesSync(unrelated, twoDaysAgo, twoDaysAgo);

  assert.equal(sweepStaleTempDirs({ root }), 2);
  assert.equal(existsSync(dead), false, 'the killed process left it: removed');
  assert.equal(existsSync(unownedOld), false, 'no owner note and two days old: removed');
  for (const kept of [live, otherHost, unownedNew, unrelated]) assert.ok(existsSync(kept), `${kept} kept`);
  // Nothing more the second time.
  assert.equal(sweepStaleTempDirs({ root }), 0);
});

test('a missing root is no error', () => {
  assert.equal(sweepStaleTempDirs({ root: join(root, 'absent') }), 0);
});

test('removeTempDir removes a scratch directory whole, its owner note last; a missing one is no error', () => {
  const dir = makeTempDir('render', root);
  mkdirSync(join(dir, 'chunks'));
  writeFileSync(join(dir, 'chunks', '0.h264'), 'x');
  writeFileSync(join(dir, 'frame.rgba'), 'x');
  removeTempDir(dir);
  assert.equal(existsSync(dir), false);
  removeTempDir(dir);
});
