import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import opentype, { type Font } from 'opentype.js';

/**
 * Fonts for one text style, in fallback order: the family's Latin file first, then its other
 * subsets (Latin Extended, Cyrillic, Greek, Vietnamese), so a character missing from one is drawn
 * from the next instead of as a box.
 */
export interface FontSet {
  fonts: Font[];
  /** Name for messages and cache keys. */
  name: string;
}

const require = createRequire(import.meta.url);
const SUBSETS = ['latin', 'latin-ext', 'cyrillic', 'cyrillic-ext', 'greek', 'greek-ext', 'vietnamese'];
const cache = new Map<string, FontSet>();

const slug = (family: string) => family.toLowerCase().replaceAll(' ', '-');

function parse(bytes: Uint8Array): Font {
  const copy = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  return opentype.parse(copy);
}

/** The weight among `available` nearest to `wanted` (ties go to the heavier, as CSS does above 500). */
export function nearestWeight(available: number[], wanted: number): number {
  let best = available[0] ?? 400;
  for (const w of available) {
    const d = Math.abs(w - wanted);
    const bd = Math.abs(best - wanted);
    if (d < bd || (d === bd && w > best)) best = w;
  }
  return best;
}

/** A bundled @fontsource family (FONT_FAMILIES) at the nearest weight it ships. */
export function bundledFontSet(family: string, weight: number): FontSet {
  const key = `${family}@${weight}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const dir = join(dirname(require.resolve(`@fontsource/${slug(family)}/package.json`)), 'files');
  const files = readdirSync(dir).filter((f) => f.endsWith('-normal.woff'));
  const pattern = new RegExp(`^${slug(family)}-(${SUBSETS.join('|')})-(\\d+)-normal\\.woff$`);
  const bySubset = new Map<string, Map<number, string>>();
  for (const f of files) {
    const m = pattern.exec(f);
    if (!m) continue;
    const weights = bySubset.get(m[1]!) ?? new Map<number, string>();
    weights.set(Number(m[2]), f);
    bySubset.set(m[1]!, weights);
  }
  const fonts: Font[] = [];
  for (const subset of SUBSETS) {
    const weights = bySubset.get(subset);
    if (!weights) continue;
    const file = weights.get(nearestWeight([...weights.keys()], weight))!;
    fonts.push(parse(readFileSync(join(dir, file))));
  }
  if (fonts.length === 0) throw new Error(`No font files for family ${family} in ${dir}`);
  const set = { fonts, name: key };
  cache.set(key, set);
  return set;
}

/** A font downloaded from a URL (TTF, OTF or WOFF). Throws when the bytes are not a font. */
export function fontSetFromBytes(bytes: Uint8Array, name: string): FontSet {
  const sig = Buffer.from(bytes.subarray(0, 4)).toString('latin1');
  if (sig === 'wOF2') throw new Error('WOFF2 fonts are not supported; use a TTF, OTF or WOFF file');
  return { fonts: [parse(bytes)], name };
}
