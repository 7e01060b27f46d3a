import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { FALLBACK_FAMILIES, familyFiles, subsetFile } from '../../movie/font-catalog.ts';
import { FONT_FAMILIES } from '../../movie/fonts.ts';
import { unreadFontFiles } from '../../scripts/prune-fonts.ts';

describe('the image build prunes fonts the renderer never reads (scripts/prune-fonts.ts)', () => {
  const pruned = new Set(unreadFontFiles());

  it('keeps every file a render can load: each subset of each family at each weight', () => {
    let kept = 0;
    for (const name of [...FONT_FAMILIES, ...FALLBACK_FAMILIES]) {
      const fam = familyFiles(name);
      for (const s of fam.subsets)
        for (const w of fam.weights) {
          const file = subsetFile(fam, s.name, w);
          if (!existsSync(file)) continue;
          assert.ok(!pruned.has(file), `${file} is read by the renderer`);
          kept++;
        }
    }
    assert.ok(kept > 1000, `${kept} files kept`);
  });

  it('removes only the other format of the same files, and CanvasKit builds other than the one loaded', () => {
    for (const p of pruned) assert.match(p, /\.(woff2?)$|canvaskit-wasm\/bin\/(full|profiling)$/);
    assert.ok(
      [...pruned].some((p) => p.endsWith('noto-color-emoji-9-400-normal.woff2')),
      'emoji is read as WOFF',
    );
    assert.ok(
      [...pruned].some((p) => p.endsWith('inter-latin-400-normal.woff')),
      'text fonts are read as WOFF2',
    );
  });
});
