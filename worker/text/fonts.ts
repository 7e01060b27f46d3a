import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { CanvasKit, Font, TypefaceFontProvider } from 'canvaskit-wasm';
import { canvasKit } from './canvaskit.ts';

/**
 * The fonts text is drawn with. Every bundled family comes from an @fontsource package, which
 * ships each family cut into subset files (Latin, Cyrillic, ..., or a hundred numbered slices of
 * a CJK font), each with the Unicode ranges it covers (unicode.json). A text loads only the
 * files whose ranges hold one of its characters, at the nearest weight, the first time they are
 * needed: a Japanese title loads a few of Noto Sans JP's slices, a Latin one none of them.
 *
 * Each file is registered in CanvasKit's font provider under a family name of its own, and a
 * text's style lists those names in fallback order (its family, then FALLBACKS): SkParagraph
 * shapes each run with the first font in the list that has its characters (per cluster).
 */

/** A family the document can name, or one of the fallbacks. */
interface Family {
  /** @fontsource package directory name. */
  slug: string;
  /** Subset files by name ('latin', '5'), in the order they are tried, with their ranges. */
  subsets: { name: string; ranges: [number, number][] }[];
  /** Weight -> file extension (all weights share the subsets). */
  weights: number[];
  /** Colour glyphs (COLR): CanvasKit draws them from the WOFF file, not from the WOFF2 one. */
  ext: 'woff' | 'woff2';
}

const require = createRequire(import.meta.url);

/** The fallbacks after a text's own family: the scripts our voices speak, then colour emoji. */
const FALLBACK_LATIN = 'Noto Sans';
const CJK = { ja: 'Noto Sans JP', zh: 'Noto Sans SC', ko: 'Noto Sans KR' } as const;
const FALLBACK_TAIL = ['Noto Sans Arabic', 'Noto Color Emoji'];

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

export function parseUnicodeRanges(spec: string): [number, number][] {
  return spec.split(',').map((part) => {
    const [lo, hi] = part.trim().replace(/^U\+/i, '').split('-');
    const a = Number.parseInt(lo!, 16);
    return [a, hi ? Number.parseInt(hi, 16) : a];
  });
}

const families = new Map<string, Family>();

const slugOf = (family: string) => family.toLowerCase().replaceAll(' ', '-');

/** Reads a bundled family's metadata (once): its subsets, their ranges and its weights. */
function family(name: string): Family {
  const hit = families.get(name);
  if (hit) return hit;
  const slug = slugOf(name);
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
  const ext = name === 'Noto Color Emoji' ? 'woff' : 'woff2';
  const weights = new Set<number>();
  const pattern = new RegExp(`^${slug}-.+-(\\d+)-normal\\.${ext}$`);
  for (const f of readdirSync(join(root, 'files'))) {
    const m = pattern.exec(f);
    if (m) weights.add(Number(m[1]));
  }
  if (weights.size === 0) throw new Error(`No font files for family ${name} in ${root}/files`);
  const fam: Family = { slug, subsets, weights: [...weights].sort((a, b) => a - b), ext };
  families.set(name, fam);
  return fam;
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

const covers = (ranges: [number, number][], cp: number) => ranges.some(([lo, hi]) => cp >= lo && cp <= hi);

/** The CJK font for Han characters: the document's `lang`, else guessed from kana or hangul. */
export function cjkOrder(text: string, lang: string | undefined): string[] {
  const base = lang?.toLowerCase().split('-')[0];
  let first: keyof typeof CJK = 'zh';
  if (base === 'ja' || base === 'ko' || base === 'zh') first = base;
  else if (/[\u3040-\u30ff\u31f0-\u31ff]/u.test(text)) first = 'ja';
  else if (/[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/u.test(text)) first = 'ko';
  return [CJK[first], ...Object.values(CJK).filter((f) => f !== CJK[first])];
}

/** A font a document brought (by URL), registered once per distinct file. */
export interface UserFont {
  /** Family name it is registered under. */
  alias: string;
  /** For its character coverage (getGlyphIDs). */
  font: Font;
}

/** The process's font provider: every font file registered so far, under its own family name. */
class FontRegistry {
  readonly provider: TypefaceFontProvider;
  private readonly registered = new Set<string>();
  private readonly userFonts = new Map<string, UserFont>();

  constructor(readonly ck: CanvasKit) {
    this.provider = ck.TypefaceFontProvider.Make();
  }

  /** Registers one subset file of a bundled family (once) and returns its family name. */
  private bundledFile(name: string, fam: Family, subset: string, weight: number): string {
    const alias = `${fam.slug}/${subset}/${weight}`;
    if (!this.registered.has(alias)) {
      const root = dirname(require.resolve(`@fontsource/${fam.slug}/package.json`));
      const file = join(root, 'files', `${fam.slug}-${subset}-${weight}-normal.${fam.ext}`);
      const bytes = readFileSync(file);
      // Registering bytes that are not a font is silently ignored: check them first.
      const face = this.ck.Typeface.MakeTypefaceFromData(new Uint8Array(bytes).buffer);
      if (!face) throw new Error(`The bundled font file ${file} (${name}) could not be read`);
      face.delete();
      this.provider.registerFont(bytes, alias);
      this.registered.add(alias);
    }
    return alias;
  }

  /** A font's bytes (TTF, OTF, WOFF or WOFF2): registered, or an error when they are not a font. */
  userFont(bytes: Uint8Array): UserFont {
    const alias = `user/${createHash('sha256').update(bytes).digest('hex').slice(0, 24)}`;
    let font = this.userFonts.get(alias);
    if (!font) {
      const face = this.ck.Typeface.MakeTypefaceFromData(new Uint8Array(bytes).buffer);
      if (!face) throw new Error('not a TrueType, OpenType, WOFF or WOFF2 font');
      this.provider.registerFont(new Uint8Array(bytes), alias);
      // Kept for the life of the process, as the provider keeps the font itself.
      font = { alias, font: new this.ck.Font(face, 16) };
      this.userFonts.set(alias, font);
    }
    return font;
  }

  /**
   * The family names of `name`'s files that hold a character of `needed`, in fallback order;
   * the characters they hold are taken out of `needed`.
   */
  private familyFiles(name: string, weight: number, needed: Set<number>): string[] {
    const fam = family(name);
    const w = nearestWeight(fam.weights, weight);
    const out: string[] = [];
    for (const s of fam.subsets) {
      const held = [...needed].filter((cp) => covers(s.ranges, cp));
      if (held.length === 0) continue;
      out.push(this.bundledFile(name, fam, s.name, w));
      for (const cp of held) needed.delete(cp);
    }
    return out;
  }

  /**
   * The fallback chain for `text`: its own font first (with the space and the ellipsis), then,
   * for the characters it lacks, Noto Sans, the CJK fonts in the text's order, Arabic and colour
   * emoji, each as the files of it that hold one of them. A Latin title loads one file.
   */
  chain(text: string, primary: string | UserFont, weight: number, lang: string | undefined): string[] {
    const needed = new Set(Array.from(text, (c) => c.codePointAt(0)!));
    for (const cp of ['\n', '\r', '\t']) needed.delete(cp.codePointAt(0)!);
    const out: string[] = [];
    if (typeof primary === 'string') {
      out.push(...this.familyFiles(primary, weight, new Set([...needed, 0x20, 0x2026])));
      // What the family's files cover (by their ranges) needs no fallback.
      this.familyFiles(primary, weight, needed);
    } else {
      out.push(primary.alias);
      const ids = primary.font.getGlyphIDs(String.fromCodePoint(...needed));
      [...needed].forEach((cp, i) => {
        if (ids[i]! > 0) needed.delete(cp);
      });
    }
    const rest = [FALLBACK_LATIN, ...cjkOrder(text, lang), ...FALLBACK_TAIL].filter((f) => f !== primary);
    for (const f of rest) {
      if (needed.size === 0) break;
      out.push(...this.familyFiles(f, weight, needed));
    }
    return out;
  }
}

let registry: Promise<FontRegistry> | undefined;

/** The process's one font registry (CanvasKit is loaded on first use). */
export function fontRegistry(): Promise<FontRegistry> {
  registry ??= canvasKit().then((ck) => new FontRegistry(ck));
  return registry;
}

export type { FontRegistry };
