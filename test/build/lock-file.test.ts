import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

// package-lock.json is what `npm install` (scripts/install.sh, with the npm it pins) writes, so that
// a clean clone stays clean after `make install`: npm rewrites a lock whose root disagrees with
// package.json or that lacks a package some locked package names, optional ones included (Biome's
// platform binaries for other systems). Download addresses stay out (.npmrc).
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface LockEntry {
  version?: string;
  integrity?: string;
  resolved?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  engines?: Record<string, string>;
}
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as LockEntry & { name: string };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  name: string;
  lockfileVersion: number;
  packages: Record<string, LockEntry>;
};

/** Where Node's resolution finds `name` from the package at `from` (a lock key): the nearest node_modules up. */
function resolve(from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const key = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (lock.packages[key]) return key;
    if (!dir) return undefined;
    const i = dir.lastIndexOf('/node_modules/');
    dir = i < 0 ? '' : dir.slice(0, i);
  }
}

test('the lock root is package.json (npm rewrites it otherwise)', () => {
  assert.equal(lock.lockfileVersion, 3);
  const root = lock.packages[''];
  assert.ok(root);
  assert.equal(lock.name, pkg.name);
  assert.deepEqual(root.dependencies ?? {}, pkg.dependencies ?? {});
  assert.deepEqual(root.devDependencies ?? {}, pkg.devDependencies ?? {});
  assert.deepEqual(root.engines ?? {}, pkg.engines ?? {});
});

test('every package a locked package depends on is in the lock, optional platform packages included', () => {
  const missing: string[] = [];
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (key === '' || entry.link) continue;
    for (const name of [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {})]) {
      if (!resolve(key, name)) missing.push(`${key} -> ${name}`);
    }
  }
  for (const name of [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})]) {
    if (!resolve('', name)) missing.push(`(root) -> ${name}`);
  }
  assert.deepEqual(missing, []);
});

test('every locked package has its integrity and no download address', () => {
  const bad = Object.entries(lock.packages)
    .filter(([key, e]) => key !== '' && !e.link && (!e.integrity || e.resolved !== undefined))
    .map(([key]) => key);
  assert.deepEqual(bad, []);
});
