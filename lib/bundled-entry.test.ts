import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundledEntry } from './bundled-entry.ts';
import { ERROR_CATALOG } from './errors.ts';

const FIXTURE = fileURLToPath(new URL('./bundled-entry.fixture.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'fw-bundled-entry-test-'));
const savedTmp = process.env.TMPDIR;
process.env.TMPDIR = dir;
after(() => {
  process.env.TMPDIR = savedTmp;
  rmSync(dir, { recursive: true, force: true });
});

describe('bundledEntry', () => {
  it('bundles a TypeScript entry that runs on bare Node, packages loaded from this project', async () => {
    const entry = await bundledEntry(FIXTURE);
    assert.match(basename(entry), /^bundled-entry\.fixture-[0-9a-f]{20}\.mjs$/);
    assert.equal(dirname(entry), join(dir, `framewright-entries-${process.getuid!()}`));
    assert.equal(statSync(dirname(entry)).mode & 0o777, 0o700);
    assert.match(readFileSync(entry, 'utf8'), /from "file:\/\/\/.*\/node_modules\/color-name\//);
    const child = fork(entry, [], { execArgv: [], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const message = await new Promise((resolve) => child.once('message', resolve));
    assert.deepEqual(message, {
      codes: Object.keys(ERROR_CATALOG).length,
      red: [255, 0, 0],
      loaders: [],
      url: pathToFileURL(FIXTURE).href,
    });
  });

  it('builds once per process and names the file by its content', async () => {
    const a = bundledEntry(FIXTURE);
    assert.equal(bundledEntry(FIXTURE), a, 'the same promise');
    assert.equal(await a, await bundledEntry(FIXTURE));
  });

  it('refuses a bundle directory that others can write to', async () => {
    const other = mkdtempSync(join(dir, 'shared-'));
    process.env.TMPDIR = other;
    try {
      const shared = join(other, `framewright-entries-${process.getuid!()}`);
      mkdirSync(shared);
      chmodSync(shared, 0o777);
      // A path not built before in this process, so the directory is checked again.
      const copy = join(other, 'fixture-copy.ts');
      writeFileSync(copy, readFileSync(FIXTURE, 'utf8').replaceAll('./errors.ts', `${process.cwd()}/lib/errors.ts`));
      await assert.rejects(bundledEntry(copy), /must be a directory of this user's with mode 0700/);
    } finally {
      process.env.TMPDIR = dir;
    }
  });
});
