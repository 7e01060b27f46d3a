import type { Font, Glyph } from 'opentype.js';
import sharp from 'sharp';
import type { FontSet } from './fonts.ts';
import { alignOffset, wrapLines } from './text-layout.ts';

export interface TextStyle {
  fontSet: FontSet;
  fontSize: number;
  /** Multiple of fontSize. */
  lineHeight: number;
  align: 'left' | 'center' | 'right';
  maxWidth: number;
}

/** An RGBA8 raster, rows top to bottom, straight alpha. */
export interface Raster {
  data: Buffer;
  width: number;
  height: number;
}

/**
 * Lays out a run glyph by glyph with kerning (GPOS, else the kern table). We skip opentype.js's
 * string shaping: it throws on GSUB lookup types it does not implement (Inter's ccmp), and
 * plain glyphs plus kerning is what we promise. Returns the advance and, if asked, the path.
 */
function layoutRun(font: Font, text: string, fontSize: number, x: number, baseline: number, withPath: boolean) {
  const scale = fontSize / font.unitsPerEm;
  const tables = font.position?.getKerningTables('latn');
  let prev: Glyph | undefined;
  let cx = x;
  let d = '';
  for (const ch of text) {
    const g = font.charToGlyph(ch);
    if (prev) {
      const kern = tables ? font.position!.getKerningValue(tables, prev.index, g.index) : font.getKerningValue(prev, g);
      cx += (kern || 0) * scale;
    }
    if (withPath) d += g.getPath(cx, baseline, fontSize).toPathData(2);
    cx += (g.advanceWidth ?? 0) * scale;
    prev = g;
  }
  return { advance: cx - x, d };
}

interface Run {
  font: Font;
  text: string;
}

/** Splits text into runs of characters drawn by the same font of the fallback chain. */
function runs(fonts: Font[], text: string): Run[] {
  const out: Run[] = [];
  for (const ch of text) {
    const font = fonts.find((f) => f.charToGlyphIndex(ch) > 0) ?? fonts[0]!;
    const last = out[out.length - 1];
    if (last && last.font === font) last.text += ch;
    else out.push({ font, text: ch });
  }
  return out;
}

export function measure(fontSet: FontSet, fontSize: number, text: string): number {
  let w = 0;
  for (const r of runs(fontSet.fonts, text)) w += layoutRun(r.font, r.text, fontSize, 0, 0, false).advance;
  return w;
}

function pathData(fontSet: FontSet, fontSize: number, text: string, x: number, baseline: number): string {
  let d = '';
  let cx = x;
  for (const r of runs(fontSet.fonts, text)) {
    const run = layoutRun(r.font, r.text, fontSize, cx, baseline, true);
    d += run.d;
    cx += run.advance;
  }
  return d;
}

function metrics(fontSet: FontSet, fontSize: number, lineHeight: number) {
  const f = fontSet.fonts[0]!;
  const ascent = (f.ascender / f.unitsPerEm) * fontSize;
  const descent = (-f.descender / f.unitsPerEm) * fontSize;
  const lh = fontSize * lineHeight;
  // Glyph box centred in the line box, like CSS half-leading.
  const baselineInLine = (lh - (ascent + descent)) / 2 + ascent;
  return { lh, baselineInLine };
}

/** Glyph coverage of an SVG of white paths: one byte per pixel. */
async function coverage(
  svgPaths: string,
  width: number,
  height: number,
): Promise<{ mask: Buffer; w: number; h: number }> {
  const w = Math.max(1, Math.ceil(width));
  const h = Math.max(1, Math.ceil(height));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}"><path d="${svgPaths}" fill="#fff"/></svg>`;
  const { data } = await sharp(Buffer.from(svg), { density: 72 })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const mask = Buffer.alloc(w * h);
  for (let i = 0; i < w * h; i++) mask[i] = data[i * 4 + 3]!;
  return { mask, w, h };
}

/**
 * Colours a coverage mask: coverage becomes alpha and RGB is the colour everywhere, so filtering
 * at glyph edges never bleeds black into the text. With `box`, the text is composited over it.
 */
function colourise(
  m: { mask: Buffer; w: number; h: number },
  rgba: [number, number, number, number],
  box?: [number, number, number, number],
): Raster {
  const { mask, w, h } = m;
  const out = Buffer.alloc(w * h * 4);
  const [r, g, b, a] = rgba;
  for (let i = 0; i < w * h; i++) {
    const cover = (mask[i]! * a) / 255;
    if (box && cover < 255) {
      const ta = cover / 255;
      const ba = box[3] / 255;
      const oa = ta + ba * (1 - ta);
      out[i * 4] = oa > 0 ? Math.round((r * ta + box[0] * ba * (1 - ta)) / oa) : 0;
      out[i * 4 + 1] = oa > 0 ? Math.round((g * ta + box[1] * ba * (1 - ta)) / oa) : 0;
      out[i * 4 + 2] = oa > 0 ? Math.round((b * ta + box[2] * ba * (1 - ta)) / oa) : 0;
      out[i * 4 + 3] = Math.round(oa * 255);
    } else {
      out[i * 4] = r;
      out[i * 4 + 1] = g;
      out[i * 4 + 2] = b;
      out[i * 4 + 3] = Math.round(cover);
    }
  }
  return { data: out, width: w, height: h };
}

/** A wrapped, aligned text block, tightly sized to its lines. */
export async function rasteriseText(
  text: string,
  style: TextStyle,
  color: [number, number, number, number],
): Promise<Raster> {
  const { fontSet, fontSize } = style;
  const lines = wrapLines(text, style.maxWidth, (s) => measure(fontSet, fontSize, s));
  const widths = lines.map((l) => measure(fontSet, fontSize, l));
  const blockWidth = Math.max(1, ...widths);
  const { lh, baselineInLine } = metrics(fontSet, fontSize, style.lineHeight);
  let d = '';
  lines.forEach((line, i) => {
    d += pathData(fontSet, fontSize, line, alignOffset(style.align, blockWidth, widths[i]!), i * lh + baselineInLine);
  });
  return colourise(await coverage(d, blockWidth, lines.length * lh), color);
}

/** One caption line in its two colours, with the horizontal extent of each word. */
export interface CaptionLine {
  /** Words in their colour, over the box when there is one. */
  raster: Raster;
  /** The same glyphs in the highlight colour, no box: drawn word by word over `raster`. */
  lit: Raster;
  words: { x0: number; x1: number }[];
}

/** Lays a caption line out once and colours the same coverage twice (one SVG rasterisation). */
export async function rasteriseCaption(
  words: string[],
  fontSet: FontSet,
  fontSize: number,
  color: [number, number, number, number],
  highlight: [number, number, number, number],
  box?: [number, number, number, number],
): Promise<CaptionLine> {
  const pad = box ? Math.round(fontSize * 0.3) : Math.round(fontSize * 0.1);
  const space = measure(fontSet, fontSize, ' ');
  const { lh, baselineInLine } = metrics(fontSet, fontSize, 1.3);
  let x = pad;
  let d = '';
  const extents: { x0: number; x1: number }[] = [];
  for (const word of words) {
    const w = measure(fontSet, fontSize, word);
    d += pathData(fontSet, fontSize, word, x, pad + baselineInLine);
    extents.push({ x0: Math.floor(x), x1: Math.ceil(x + w) });
    x += w + space;
  }
  const mask = await coverage(d, x - space + pad, lh + 2 * pad);
  return { raster: colourise(mask, color, box), lit: colourise(mask, highlight), words: extents };
}
