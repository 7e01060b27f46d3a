/**
 * The module map of ARCHITECTURE.md, enforced: dependency-cruiser (.dependency-cruiser.cjs) over
 * the import graph of the product's sources must find no import the map forbids, no import circle,
 * and in worker/ no stage importing one above it. The second test proves the rules bite: a tree
 * with one forbidden import per rule (a circle among them) fails with exactly those.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DEPCRUISE = path.join(ROOT, 'node_modules/.bin/depcruise');
const SOURCES = ['bin', 'lib', 'movie', 'store', 'api', 'worker', 'operator', 'dashboard/src', 'player/src'];

type Violation = { rule: { name: string }; from: string; to: string };

async function cruise(cwd: string, dirs: string[]): Promise<Violation[]> {
  const config = path.join(cwd, '.dependency-cruiser.cjs');
  const run = promisify(execFile)(DEPCRUISE, [...dirs, '--config', config, '--output-type', 'json'], {
    cwd,
    maxBuffer: 1 << 28,
  });
  // depcruise exits non-zero when it finds violations; its JSON report is on stdout either way.
  const { stdout } = await run.catch((err: { stdout?: string; code?: number }) => {
    if (typeof err.stdout === 'string' && err.stdout.startsWith('{')) return { stdout: err.stdout };
    throw err;
  });
  const report = JSON.parse(stdout) as { summary: { violations: Violation[] } };
  return report.summary.violations;
}

test('every import of the product follows the module map (ARCHITECTURE.md)', async () => {
  const violations = await cruise(ROOT, SOURCES);
  const lines = violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
  assert.deepEqual(lines, [], `imports the module map forbids:\n${lines.join('\n')}`);
});

test('the rules bite: one forbidden import per rule is reported, allowed ones are not', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'fw-module-map-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(path.join(ROOT, '.dependency-cruiser.cjs'), path.join(dir, '.dependency-cruiser.cjs'));
  cpSync(path.join(ROOT, 'tsconfig.json'), path.join(dir, 'tsconfig.json'));
  const files: Record<string, string> = {
    'lib/base.ts': 'export const base = 1;\n',
    'store/types.ts': 'export type Row = { id: string };\n',
    'movie/paths.ts': "import { base } from '../lib/base.ts';\nexport const p = base;\n",
    'store/repo.ts': "import { p } from '../movie/paths.ts';\nexport const r = p;\n",
    'worker/job-protocol.ts': 'export type Msg = { kind: string };\n',
    'worker/render.ts': "import { a } from '../api/app.ts';\nexport const w = a;\n",
    'api/app.ts':
      "import type { Msg } from '../worker/job-protocol.ts';\nimport { r } from '../store/repo.ts';\nexport const a = r;\nexport type M = Msg;\n",
    'api/bad.ts': "import { w } from '../worker/render.ts';\nexport const bad = w;\n",
    'lib/bad.ts':
      "import type { Row } from '../store/types.ts';\nimport { r } from '../store/repo.ts';\nexport const lb: Row = { id: String(r) };\n",
    'movie/bad.ts': "import { r } from '../store/repo.ts';\nexport const mb = r;\n",
    'store/bad.ts': "import { a } from '../api/app.ts';\nexport const sb = a;\n",
    'operator/bad.ts': "import { w } from '../worker/render.ts';\nexport const ob = w;\n",
    'dashboard/src/page.ts':
      "import type { M } from '../../api/app.ts';\nimport { p } from '../../movie/paths.ts';\nimport { a } from '../../api/app.ts';\nexport const d: M | number = p + a;\n",
    'api/uses-test.ts': "import { h } from '../test/helpers.ts';\nexport const u = h;\n",
    'test/helpers.ts': 'export const h = 1;\n',
    // The worker's stages: plan/ below all, a stage never above its own; and a circle.
    'worker/plan/pure.ts': "import { f } from '../draw/frame.ts';\nexport const p = f;\n",
    'worker/draw/frame.ts': "import { e } from '../encode/args.ts';\nexport const f = e;\n",
    'worker/encode/args.ts': "import { s } from '../prepare/speech.ts';\nexport const e = s;\n",
    'worker/prepare/speech.ts': "import { e } from '../encode/args.ts';\nexport const s = typeof e;\n",
    'worker/run/render.ts':
      "import { f } from '../draw/frame.ts';\nimport { s } from '../prepare/speech.ts';\nexport const r = [f, s];\n",
    // The browser player: the frame graph and the plan, never the worker's Node host or the API.
    'worker/draw/gpu/graph.ts': 'export const g = 1;\n',
    'worker/draw/gpu/worker-host.ts': "import { g } from './graph.ts';\nexport const wh = g;\n",
    'player/src/ok.ts':
      "import { g } from '../../worker/draw/gpu/graph.ts';\nimport { p } from '../../movie/paths.ts';\nexport const ok = g + p;\n",
    'player/src/bad.ts':
      "import { wh } from '../../worker/draw/gpu/worker-host.ts';\nimport { a } from '../../api/app.ts';\nexport const pb = [wh, a];\n",
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  const found = (
    await cruise(
      dir,
      SOURCES.filter((d) => d !== 'bin'),
    )
  )
    .map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)
    .sort();
  assert.deepEqual(found, [
    'api-imports-lib-movie-store: api/bad.ts -> worker/render.ts',
    'dashboard-types-only: dashboard/src/page.ts -> api/app.ts',
    'lib-imports-only-lib: lib/bad.ts -> store/repo.ts',
    'movie-imports-only-lib: movie/bad.ts -> store/repo.ts',
    'no-circular: worker/encode/args.ts -> worker/prepare/speech.ts',
    'no-product-to-tests: api/uses-test.ts -> test/helpers.ts',
    'operator-imports-lib-store: operator/bad.ts -> worker/render.ts',
    'player-draws-with-the-frame-graph: player/src/bad.ts -> api/app.ts',
    'player-no-node-host: player/src/bad.ts -> worker/draw/gpu/worker-host.ts',
    'store-imports-lib-movie: store/bad.ts -> api/app.ts',
    'worker-draw-takes-plan: worker/draw/frame.ts -> worker/encode/args.ts',
    'worker-encode-takes-plan: worker/encode/args.ts -> worker/prepare/speech.ts',
    'worker-knows-no-http: worker/render.ts -> api/app.ts',
    'worker-plan-is-the-bottom: worker/plan/pure.ts -> worker/draw/frame.ts',
  ]);
});
