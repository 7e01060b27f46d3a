import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { CanvasKit, Font, TypefaceFontProvider } from 'canvaskit-wasm';
import {
  cjkOrder,
  FALLBACK_LATIN,
  FALLBACK_TAIL,
  type FamilyFiles,
  familyFiles,
  rangesCover,
  subsetFile,
} from '../../../movie/font-catalog.ts';
import { ELLIPSIS } from '../../../movie/index.ts';
import { canvasKit } from './canvaskit.ts';

/**
 * The fonts text is drawn with, from the bundled families' subset files (movie/font-catalog.ts).
 * A text loads only the files whose ranges hold one of its characters, at the nearest weight,
 * the first time they are needed: a Japanese title loads a few of Noto Sans JP's slices, a Latin
 * one none of them.
 *
 * Each file is registered in CanvasKit's font provider under a family name of its own, and a
 * text's style lists those names in fallback order (its family, then the fallbacks): SkParagraph
 * shapes each run with the first font in the list that has its characters (per cluster).
 */

/** The weight among `available` nearest to `wanted` (ties go to the heavier, as CSS does above 500). */
function nearestWeight(available: number[], wanted: number): number {
  let best = available[0] ?? 400;
  for (const w of available) {
    const d = Math.abs(w - wanted);
    const bd = Math.abs(best - wanted);
    if (d < bd || (d === bd && w > best)) best = w;
  }
  return best;
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
  private bundledFile(name: string, fam: FamilyFiles, subset: string, weight: number): string {
    const alias = `${fam.slug}/${subset}/${weight}`;
    if (!this.registered.has(alias)) {
      const file = subsetFile(fam, subset, weight);
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
  private familyFiles(name: string, weight: number, needed: Set<number>, forced: ReadonlySet<number>): string[] {
    const fam = familyFiles(name);
    const w = nearestWeight(fam.weights, weight);
    const out: string[] = [];
    for (const s of fam.subsets) {
      const held = [...needed].filter((cp) => rangesCover(s.ranges, cp));
      if (held.length === 0) continue;
      out.push(this.bundledFile(name, fam, s.name, w));
      for (const cp of held) if (!forced.has(cp)) needed.delete(cp);
    }
    return out;
  }

  /**
   * The fallback chain for `text`: its own font first (with the space and the ellipsis), then,
   * for the characters it lacks, Noto Sans, the CJK fonts in the text's order, Arabic and colour
   * emoji, each as the files of it that hold one of them. A Latin title loads one file.
   *
   * The ranges are what a subset file is declared for, not always what it has (Inter's Latin
   * file is declared for U+FFFD and has no glyph for it): `unresolved` are characters a layout
   * with this chain found no font for, and they are looked for in every file declared for them.
   * The replacement character always is, since missing characters are drawn as it.
   */
  chain(
    text: string,
    primary: string | UserFont,
    weight: number,
    lang: string | undefined,
    unresolved: ReadonlySet<number> = new Set(),
  ): string[] {
    const needed = new Set(Array.from(text, (c) => c.codePointAt(0)!));
    for (const cp of ['\n', '\r', '\t']) needed.delete(cp.codePointAt(0)!);
    const forced = new Set([...unresolved, ...(needed.has(0xfffd) ? [0xfffd] : [])]);
    const out: string[] = [];
    if (typeof primary === 'string') {
      // The family's own space and ellipsis (for a cut line), whatever the text holds; what its
      // files cover (by their ranges) needs no fallback.
      needed.add(0x20).add(ELLIPSIS.codePointAt(0)!);
      out.push(...this.familyFiles(primary, weight, needed, forced));
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
      out.push(...this.familyFiles(f, weight, needed, forced));
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
