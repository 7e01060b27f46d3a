/**
 * No dead code: knip (knip.jsonc) finds no unused file, export, exported type, dependency or
 * unresolved import in the repository. The second test proves the check bites with the same
 * configuration: a tree with an unused export, an unused type and an orphan file fails with them.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '../..');
const KNIP = path.join(ROOT, 'node_modules/.bin/knip');

type Named = { name: string };
type FileIssues = { file: string; files: Named[]; exports: Named[]; types: Named[] } & Record<string, unknown>;

/** knip's findings as lines `kind: file name`; knip exits 1 when it finds any. */
async function knip(directory: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)(
    KNIP,
    ['--directory', directory, '--no-progress', '--reporter', 'json'],
    {
      cwd: directory,
      maxBuffer: 1 << 28,
    },
  ).catch((err: { stdout?: string }) => {
    if (typeof err.stdout === 'string' && err.stdout.startsWith('{')) return { stdout: err.stdout };
    throw err;
  });
  const report = JSON.parse(stdout) as { issues: FileIssues[] };
  const lines: string[] = [];
  for (const issue of report.issues) {
    for (const [kind, found] of Object.entries(issue)) {
      if (kind === 'file' || !Array.isArray(found)) continue;
      for (const item of found as Named[]) lines.push(`${kind}: ${issue.file} ${item.name}`);
    }
  }
  return lines.sort();
}

test('knip finds no unused file, export, type or dependency (knip.jsonc)', async () => {
  const found = await knip(ROOT);
  assert.deepEqual(found, [], `knip's findings (remove the code, or the export keyword):\n${found.join('\n')}`);
});

test('the check bites: an unused export, an unused type and an orphan file are reported', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'fw-knip-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(path.join(ROOT, 'knip.jsonc'), path.join(dir, 'knip.jsonc'));
  cpSync(path.join(ROOT, 'tsconfig.json'), path.join(dir, 'tsconfig.json'));
  const files: Record<string, string> = {
    'package.json': '{ "name": "fixture", "private": true, "type": "module" }\n',
    'bin/cli.ts': "import { used } from '../lib/a.ts';\nconsole.log(used);\n",
    'lib/a.ts': 'export const used = 1;\nexport const unused = 2;\nexport type UnusedType = { a: number };\n',
    'lib/orphan.ts': 'export const orphan = 3;\n',
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  assert.deepEqual(await knip(dir), [
    'exports: lib/a.ts unused',
    'files: lib/orphan.ts lib/orphan.ts',
    'types: lib/a.ts UnusedType',
  ]);
});
