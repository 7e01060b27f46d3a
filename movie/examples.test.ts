import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { resolveMovie } from './index.ts';

// The documents the README, tests and benchmarks use must stay valid as the schema evolves.
const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'examples');
const files = (() => {
  try {
    return readdirSync(dir).filter((f) => f.endsWith('.json'));
  } catch {
    return [];
  }
})();

for (const file of files) {
  test(`examples/${file} resolves with its defaults and validates`, () => {
    const r = resolveMovie(JSON.parse(readFileSync(join(dir, file), 'utf8')));
    assert.deepEqual(r.ok ? [] : r.findings, []);
  });
}
