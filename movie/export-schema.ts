/**
 * Regenerates the checked-in artefacts derived from the schema: schemas/movie.<version>.json (the
 * JSON Schema export) and the field reference inside docs/movie.md. Tests fail when either is stale.
 *
 *   node --import tsx movie/export-schema.ts          write the files
 *   node --import tsx movie/export-schema.ts --check  exit 1 when a file is stale
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withReference } from './docs-reference.ts';
import { movieJsonSchema } from './json-schema.ts';
import { SCHEMA_VERSIONS } from './versions.ts';

export const EXPORT_COMMAND = 'node --import tsx movie/export-schema.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Every generated file with the content it should have. */
export function expectedArtefacts(): { path: string; content: string }[] {
  const out = SCHEMA_VERSIONS.map((v) => ({
    path: join(root, 'schemas', `movie.${v}.json`),
    content: `${JSON.stringify(movieJsonSchema(v as 'v1'), null, 2)}\n`,
  }));
  const docs = join(root, 'docs', 'movie.md');
  out.push({ path: docs, content: withReference(readFileSync(docs, 'utf8')) });
  return out;
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const { path, content } of expectedArtefacts()) {
    if (read(path) === content) continue;
    stale++;
    if (check) process.stderr.write(`stale: ${path}\n`);
    else {
      writeFileSync(path, content);
      process.stdout.write(`wrote ${path}\n`);
    }
  }
  if (check && stale > 0) process.stderr.write(`run: ${EXPORT_COMMAND}\n`);
  process.exitCode = check && stale > 0 ? 1 : 0;
}
