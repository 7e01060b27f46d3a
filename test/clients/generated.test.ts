// The typed API clients in clients/ are what `make clients` makes from api/openapi.json as it is:
// both are generated again into a temporary directory (scripts/generate-clients.ts, the pinned
// generators) and compared file by file with the committed ones. Also: the generated Python
// package imports whole and ruff finds no undefined name in it. (The TypeScript package's own
// build is used against a live serve in live.test.ts.)
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { GENERATED, generateClients } from '../../scripts/generate-clients.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLIENTS = path.join(ROOT, 'clients');
const PYTHON_PACKAGE = path.join(CLIENTS, GENERATED.python);

/** Files under `dir` (or `dir` itself when it is a file), relative to it; no Python caches. */
async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOTDIR') return null;
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  if (entries === null) return [''];
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .filter((f) => !f.split(path.sep).some((part) => part === '__pycache__' || part === '.ruff_cache'))
    .sort();
}

test('clients/ is what api/openapi.json generates (make clients)', { timeout: 120_000 }, async (t) => {
  const out = await mkdtemp(path.join(tmpdir(), 'fw-clients-'));
  t.after(() => rm(out, { recursive: true, force: true }));
  await generateClients(out);
  const stale: string[] = [];
  for (const generated of Object.values(GENERATED)) {
    const committed = path.join(CLIENTS, generated);
    const fresh = path.join(out, generated);
    const [have, want] = await Promise.all([files(committed), files(fresh)]);
    assert.ok(want.length > 0, `${generated}: nothing generated`);
    for (const f of new Set([...have, ...want])) {
      const name = path.join('clients', generated, f);
      if (!want.includes(f)) stale.push(`${name}: no longer generated`);
      else if (!have.includes(f)) stale.push(`${name}: missing`);
      else {
        const [a, b] = await Promise.all([readFile(path.join(committed, f)), readFile(path.join(fresh, f))]);
        if (!a.equals(b)) stale.push(`${name}: differs`);
      }
    }
  }
  assert.deepEqual(
    stale,
    [],
    `The clients in clients/ are stale against api/openapi.json: run \`make clients\` and commit clients/ (${stale.length} files)`,
  );
});

test('the Python package imports whole, has no undefined name (ruff) and keeps every example movie as written', async () => {
  const venv = path.join(ROOT, '.cache/venv/bin');
  // Every module, as a user's `import` would load it, not only the ones the live test reaches.
  const importAll = [
    'import importlib, pkgutil, framewright_client as p',
    "mods = [m.name for m in pkgutil.walk_packages(p.__path__, 'framewright_client.')]",
    'for m in mods: importlib.import_module(m)',
    'print(len(mods))',
  ].join('\n');
  // Every example document through the request model and back, unchanged: each element kind and
  // each union of the movie schema (examples/every-field.json has them all) parses as itself.
  const roundTrip = [
    'import glob, json, sys',
    'from framewright_client.models import CreateRenderBody',
    'bad = []',
    "for f in sorted(glob.glob(sys.argv[1] + '/*.json')):",
    "    body = {'movie': json.load(open(f))}",
    '    if CreateRenderBody.from_dict(body).to_dict() != body: bad.append(f)',
    'print(json.dumps(bad))',
  ].join('\n');
  const { stdout } = await run(path.join(venv, 'python'), ['-c', importAll], {
    env: { ...process.env, PYTHONPATH: PYTHON_PACKAGE, PYTHONDONTWRITEBYTECODE: '1' },
  });
  assert.ok(Number(stdout) > 100, `modules imported: ${stdout}`);
  const examples = path.join(ROOT, 'examples');
  assert.ok((await readdir(examples)).includes('every-field.json'));
  const changed = await run(path.join(venv, 'python'), ['-c', roundTrip, examples], {
    env: { ...process.env, PYTHONPATH: PYTHON_PACKAGE, PYTHONDONTWRITEBYTECODE: '1' },
  });
  assert.deepEqual(JSON.parse(changed.stdout), []);
  // F: pyflakes (undefined names, unused imports), under the package's own ruff settings.
  await run(path.join(venv, 'ruff'), ['check', '--no-cache', '--select', 'F', '.'], { cwd: PYTHON_PACKAGE });
});
