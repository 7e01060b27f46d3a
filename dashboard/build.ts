/**
 * Builds the web dashboard (dashboard/src/main.ts and its stylesheet) with esbuild: one minified
 * ES module, one stylesheet, the page and its icon. `make build` writes them to dist/dashboard/
 * (`node --import tsx dashboard/build.ts OUT_DIR`); `framewright serve` from the sources builds
 * them in memory on the first request (api/dashboard/files.ts). Type errors are tsc's job
 * (`npx tsc --noEmit -p dashboard`, run by scripts/build.sh): esbuild only strips types.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** index.html, app.js, app.css and icon.svg, built from the sources in `sourceDir`. */
export async function buildDashboard(sourceDir: string): Promise<Map<string, Buffer>> {
  const common = { bundle: true, minify: true, write: false, logLevel: 'silent', legalComments: 'none' } as const;
  const [script, style, page, icon] = await Promise.all([
    build({
      ...common,
      entryPoints: [join(sourceDir, 'src/main.ts')],
      platform: 'browser',
      format: 'esm',
      // Chromium, Firefox and Safari of the last two years.
      target: ['chrome110', 'firefox115', 'safari16'],
    }),
    build({ ...common, entryPoints: [join(sourceDir, 'styles.css')] }),
    readFile(join(sourceDir, 'index.html')),
    readFile(join(sourceDir, 'icon.svg')),
  ]);
  return new Map([
    ['index.html', page],
    ['app.js', Buffer.from(script.outputFiles[0]!.contents)],
    ['app.css', Buffer.from(style.outputFiles[0]!.contents)],
    ['icon.svg', icon],
  ]);
}

/** `node --import tsx dashboard/build.ts OUT_DIR`: writes the files into OUT_DIR (replaced whole). */
async function main(outDir: string): Promise<void> {
  const files = await buildDashboard(fileURLToPath(new URL('.', import.meta.url)));
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  for (const [name, body] of files) await writeFile(join(outDir, name), body);
  const size = [...files.values()].reduce((n, b) => n + b.length, 0);
  process.stdout.write(`build: ${outDir}/ (dashboard, ${files.size} files, ${(size / 1024).toFixed(1)} KiB)\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const out = process.argv[2];
  if (!out) {
    process.stderr.write('usage: node --import tsx dashboard/build.ts OUT_DIR\n');
    process.exit(2);
  }
  await main(out);
}
