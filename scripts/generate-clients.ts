/**
 * `make clients`: the typed API clients in clients/, generated from the OpenAPI document
 * (api/openapi.json) and committed.
 *
 * - TypeScript: clients/typescript/src/schema.ts, the document's paths and schemas as types, by
 *   openapi-typescript (the version package-lock.json holds). clients/typescript/src/index.ts,
 *   written by hand, puts openapi-fetch over them.
 * - Python: clients/python/framewright-client/, a whole package, by openapi-python-client with
 *   clients/python/generator.yaml and the template override in clients/python/templates (why:
 *   clients/python/README.md). The generator and the ruff it formats with are pinned in
 *   scripts/install.sh, which installs them into .cache/venv: the output is a function of their
 *   versions, so an upgrade is a commit of its own (the pin and `make clients`).
 *
 * `node --import tsx scripts/generate-clients.ts [OUT_DIR]`: in place, or into OUT_DIR (the same
 * layout under it: typescript/src/schema.ts, python/framewright-client/), which is how
 * test/clients/generated.test.ts holds the committed files equal to the document.
 */
import { execFile } from 'node:child_process';
import { access, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DOCUMENT = path.join(ROOT, 'api/openapi.json');
const VENV_BIN = path.join(ROOT, '.cache/venv/bin');

/** What is generated, relative to clients/ (or to an OUT_DIR). */
export const GENERATED = {
  typescript: 'typescript/src/schema.ts',
  python: 'python/framewright-client',
} as const;

/** The TypeScript types of the document, written to `file`. */
async function generateTypescript(file: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  // --default-non-nullable false: a field with a default stays optional where the document does
  // not require it. openapi-typescript otherwise types it as always present, right for answers but
  // wrong for request bodies: a movie would have to spell out every defaulted field (font, fps...).
  const args = [DOCUMENT, '--output', file, '--default-non-nullable', 'false'];
  await run(path.join(ROOT, 'node_modules/.bin/openapi-typescript'), args, { cwd: ROOT });
}

/** The Python package, written to `dir` (replaced whole). */
async function generatePython(dir: string): Promise<void> {
  const generator = path.join(VENV_BIN, 'openapi-python-client');
  try {
    await access(generator);
  } catch {
    throw new Error(`${generator} is missing: run scripts/install.sh (make install) first`);
  }
  await mkdir(path.dirname(dir), { recursive: true });
  const args = [
    'generate',
    '--path',
    DOCUMENT,
    '--config',
    path.join(ROOT, 'clients/python/generator.yaml'),
    '--custom-template-path',
    path.join(ROOT, 'clients/python/templates'),
    '--meta',
    'uv',
    '--output-path',
    dir,
    '--overwrite',
    // A construct the generator cannot express is an error here, not a quietly missing model.
    '--fail-on-warning',
  ];
  // The post hooks (ruff) are found on PATH: the venv's, the pinned version.
  await run(generator, args, {
    cwd: ROOT,
    env: { ...process.env, PATH: `${VENV_BIN}:${process.env.PATH ?? ''}`, PYTHONDONTWRITEBYTECODE: '1' },
  });
}

/** Both clients, under `outDir` (clients/ for the committed ones). */
export async function generateClients(outDir: string): Promise<void> {
  await Promise.all([
    generateTypescript(path.join(outDir, GENERATED.typescript)),
    generatePython(path.join(outDir, GENERATED.python)),
  ]);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const outDir = path.resolve(process.argv[2] ?? path.join(ROOT, 'clients'));
  try {
    await generateClients(outDir);
  } catch (err) {
    const e = err as Error & { stdout?: string; stderr?: string };
    process.stderr.write(`generate-clients: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}\n`);
    process.exit(1);
  }
  process.stdout.write(
    `clients: ${path.join(outDir, GENERATED.typescript)}, ${path.join(outDir, GENERATED.python)}/\n`,
  );
}
