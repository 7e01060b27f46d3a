/**
 * Builds the browser player (player/src/index.ts) with esbuild: one minified ES module, three.js
 * and the worker's frame graph inside. `make build` writes it to dist/player/
 * (`node --import tsx player/build.ts OUT_DIR`); `framewright serve` from the sources builds it in
 * memory on the first request for /player/framewright-player.js (api/player/routes.ts), as the
 * dashboard is built. Type errors are tsc's job (`npx tsc --noEmit -p player`).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The file name the player is served and written as. */
export const PLAYER_FILE = 'framewright-player.js';

/** The player's one module, built from the sources in `sourceDir` (player/). */
export async function buildPlayer(sourceDir: string): Promise<Buffer> {
  const out = await build({
    entryPoints: [join(sourceDir, 'src/index.ts')],
    bundle: true,
    minify: true,
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
    platform: 'browser',
    format: 'esm',
    // Chromium, Firefox and Safari of the last two years (WebGL 2 everywhere).
    target: ['chrome110', 'firefox115', 'safari16'],
  });
  return Buffer.from(out.outputFiles[0]!.contents);
}

/** `node --import tsx player/build.ts OUT_DIR`: writes OUT_DIR/framewright-player.js (OUT_DIR replaced). */
async function main(outDir: string): Promise<void> {
  const body = await buildPlayer(fileURLToPath(new URL('.', import.meta.url)));
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, PLAYER_FILE), body);
  process.stdout.write(`build: ${outDir}/${PLAYER_FILE} (player, ${(body.length / 1024).toFixed(1)} KiB)\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const out = process.argv[2];
  if (!out) {
    process.stderr.write('usage: node --import tsx player/build.ts OUT_DIR\n');
    process.exit(2);
  }
  await main(out);
}
