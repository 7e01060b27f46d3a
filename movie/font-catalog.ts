import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DEFAULT_FONT, FONT_FAMILIES } from './fonts.ts';

/**
 * What the bundled fonts are and what they draw, read from their @fontsource packages. Each
 * package ships its family cut into subset files (Latin, Cyrillic, ... or a hundred numbered
 * slices of a CJK font), and unicode.json gives each subset's Unicode ranges. The renderer loads
 * the files a text needs from this (worker/prepare/text/fonts.ts); template checks warn from it about
 * characters no font draws. One catalogue for both.
 */

/** After a text's own family, for what it lacks: Latin's kin, then CJK (in the text's order), Arabic, emoji. */
export const FALLBACK_LATIN = 'Noto Sans';
const CJK_FAMILIES = { ja: 'Noto Sans JP', zh: 'Noto Sans SC', ko: 'Noto Sans KR' } as const;
export const FALLBACK_TAIL = ['Noto Sans Arabic', 'Noto Color Emoji'] as const;
export const FALLBACK_FAMILIES: readonly string[] = [FALLBACK_LATIN, ...Object.values(CJK_FAMILIES), ...FALLBACK_TAIL];

export type UnicodeRanges = [number, number][];

export interface FamilyFiles {
  /** @fontsource package directory name. */
  slug: string;
  /** Its files' directory. */
  dir: string;
  /** Subsets ('latin', '5') in the order they are tried, with their ranges. */
  subsets: { name: string; ranges: UnicodeRanges }[];
  weights: number[];
  /** The format the renderer reads: WOFF2, but WOFF for colour (COLR) glyphs, which CanvasKit draws only from it. */
  ext: 'woff' | 'woff2';
}

/** Named subsets first, in this order (Latin before its extension), then numbered slices. */
const SUBSET_ORDER = [
  'latin',
  'latin-ext',
  'cyrillic',
  'cyrillic-ext',
  'greek',
  'greek-ext',
  'vietnamese',
  'devanagari',
  'arabic',
];

export function parseUnicodeRanges(spec: string): UnicodeRanges {
  return spec.split(',').map((part) => {
    const [lo, hi] = part.trim().replace(/^U\+/i, '').split('-');
    const a = Number.parseInt(lo!, 16);
    return [a, hi ? Number.parseInt(hi, 16) : a];
  });
}

const fontSlug = (family: string) => family.toLowerCase().replaceAll(' ', '-');

/** The file format the renderer reads for a bundled family (the prune step keeps only it). */
const fontFileExt = (family: string): 'woff' | 'woff2' => (family === 'Noto Color Emoji' ? 'woff' : 'woff2');

const require = createRequire(import.meta.url);
const cache = new Map<string, FamilyFiles>();

/** A bundled family's files (read once): its subsets, their ranges and its weights. */
export function familyFiles(name: string): FamilyFiles {
  const hit = cache.get(name);
  if (hit) return hit;
  const slug = fontSlug(name);
  const root = dirname(require.resolve(`@fontsource/${slug}/package.json`));
  const unicode = JSON.parse(readFileSync(join(root, 'unicode.json'), 'utf8')) as Record<string, string>;
  const subsets = Object.entries(unicode).map(([key, spec]) => ({
    name: key.replace(/^\[(\d+)\]$/, '$1'),
    ranges: parseUnicodeRanges(spec),
  }));
  const rank = (n: string) => {
    const i = SUBSET_ORDER.indexOf(n);
    return i >= 0 ? i : SUBSET_ORDER.length + (Number(n) || 0);
  };
  subsets.sort((a, b) => rank(a.name) - rank(b.name));
  const ext = fontFileExt(name);
  const dir = join(root, 'files');
  const weights = new Set<number>();
  const pattern = new RegExp(`^${slug}-.+-(\\d+)-normal\\.${ext}$`);
  for (const f of readdirSync(dir)) {
    const m = pattern.exec(f);
    if (m) weights.add(Number(m[1]));
  }
  if (weights.size === 0) throw new Error(`No font files for family ${name} in ${dir}`);
  const fam: FamilyFiles = { slug, dir, subsets, weights: [...weights].sort((a, b) => a - b), ext };
  cache.set(name, fam);
  return fam;
}

/** The file of one subset at one weight. */
export const subsetFile = (fam: FamilyFiles, subset: string, weight: number) =>
  join(fam.dir, `${fam.slug}-${subset}-${weight}-normal.${fam.ext}`);

export const rangesCover = (ranges: UnicodeRanges, cp: number) => ranges.some(([lo, hi]) => cp >= lo && cp <= hi);

/** The CJK fonts in the order Han is drawn: the text's `lang`, else guessed from kana or hangul. */
export function cjkOrder(text: string, lang: string | undefined): string[] {
  const base = lang?.toLowerCase().split('-')[0];
  let first: keyof typeof CJK_FAMILIES = 'zh';
  if (base === 'ja' || base === 'ko' || base === 'zh') first = base;
  else if (/[\u3040-\u30ff\u31f0-\u31ff]/u.test(text)) first = 'ja';
  else if (/[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/u.test(text)) first = 'ko';
  return [CJK_FAMILIES[first], ...Object.values(CJK_FAMILIES).filter((f) => f !== CJK_FAMILIES[first])];
}

/** Code points that take no glyph of their own: controls, joiners, marks of direction, variation selectors, tags. */
const INVISIBLE: UnicodeRanges = [
  [0x0, 0x1f],
  [0x7f, 0x9f],
  [0x200b, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x2064],
  [0xfe00, 0xfe0f],
  [0xe0000, 0xe007f],
  [0xe0100, 0xe01ef],
];

let fallbackRanges: UnicodeRanges | undefined;

/** Sorted, merged ranges of every subset of the given families. */
function unionOf(families: readonly string[]): UnicodeRanges {
  const all = families.flatMap((f) => familyFiles(f).subsets.flatMap((s) => s.ranges));
  all.sort((a, b) => a[0] - b[0]);
  const out: UnicodeRanges = [];
  for (const [lo, hi] of all) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

function inSorted(ranges: UnicodeRanges, cp: number): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [a, b] = ranges[mid]!;
    if (cp < a) hi = mid - 1;
    else if (cp > b) lo = mid + 1;
    else return true;
  }
  return false;
}

const familyRanges = new Map<string, UnicodeRanges>();

/**
 * The characters of `text` that neither the bundled `family` nor any bundled fallback draws, by
 * the subsets' declared ranges. The renderer draws these as U+FFFD, the replacement character.
 */
export function uncoveredCharacters(text: string, family: string = DEFAULT_FONT): string[] {
  fallbackRanges ??= unionOf(FALLBACK_FAMILIES);
  if (!(FONT_FAMILIES as readonly string[]).includes(family)) throw new Error(`not a bundled family: ${family}`);
  const ownRanges = familyRanges.get(family) ?? unionOf([family]);
  familyRanges.set(family, ownRanges);
  const out = new Set<string>();
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (inSorted(INVISIBLE, cp) || inSorted(ownRanges, cp) || inSorted(fallbackRanges, cp)) continue;
    out.add(ch);
  }
  return [...out];
}
