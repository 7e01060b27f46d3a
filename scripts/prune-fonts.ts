/**
 * The image build's last step before `npm prune --omit=dev` (Dockerfile): removes from
 * node_modules the font files the renderer never reads. Each @fontsource package ships every
 * subset twice, as WOFF and WOFF2; the renderer reads one (movie/font-catalog.ts fontFileExt),
 * so the other goes: about 140 MB of the fonts' 270 MB. CanvasKit's two other builds (full,
 * profiling) go too. `node --import tsx scripts/prune-fonts.ts [--dry-run]`.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { FALLBACK_FAMILIES, familyFiles } from '../movie/font-catalog.ts';
import { FONT_FAMILIES } from '../movie/fonts.ts';

/** Paths under node_modules that no render reads. */
export function unreadFontFiles(): string[] {
  const out: string[] = [];
  for (const name of [...FONT_FAMILIES, ...FALLBACK_FAMILIES]) {
    const fam = familyFiles(name);
    for (const f of readdirSync(fam.dir)) if (!f.endsWith(`.${fam.ext}`)) out.push(join(fam.dir, f));
  }
  const ck = dirname(createRequire(import.meta.url).resolve('canvaskit-wasm/package.json'));
  for (const build of ['full', 'profiling']) out.push(join(ck, 'bin', build));
  return out;
}

const size = (p: string): number => {
  const st = statSync(p, { throwIfNoEntry: false });
  if (!st) return 0;
  return st.isDirectory() ? readdirSync(p).reduce((n, f) => n + size(join(p, f)), 0) : st.size;
};

if (import.meta.filename === process.argv[1]) {
  const dry = process.argv.includes('--dry-run');
  const paths = unreadFontFiles();
  const bytes = paths.reduce((n, p) => n + size(p), 0);
  if (!dry) for (const p of paths) rmSync(p, { recursive: true, force: true });
  console.log(
    `prune-fonts: ${dry ? 'would remove' : 'removed'} ${paths.length} paths, ${(bytes / 1048576).toFixed(1)} MiB`,
  );
}
