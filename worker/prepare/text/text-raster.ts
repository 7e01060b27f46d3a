import type { Canvas, CanvasKit, TextStyle as CkTextStyle, Paint, Paragraph } from 'canvaskit-wasm';
import { DEFAULT_BOX_PADDING_EM, ELLIPSIS } from '../../../movie/index.ts';
import type { Rgba } from '../../plan/color.ts';
import { zoomedSize } from '../zoom-rasters.ts';
import { readRgba } from './canvaskit.ts';
import { type FontRegistry, fontRegistry, type UserFont } from './fonts.ts';

/**
 * How a block of text looks. Sizes are output pixels. Layout is SkParagraph's: HarfBuzz shapes
 * each run, ICU orders right-to-left runs (Unicode bidi) and finds line breaks (UAX #14: CJK
 * between characters, never before closing punctuation), each cluster takes the first font of
 * the fallback chain that has it (fonts.ts).
 */
export interface TextStyle {
  /** A bundled family (FONT_FAMILIES) or a font the document brought. */
  font: string | UserFont;
  weight: number;
  fontSize: number;
  /** Multiple of fontSize. */
  lineHeight: number;
  /** Pixels added after each character. */
  letterSpacing?: number | undefined;
  align: 'left' | 'center' | 'right';
  maxWidth: number;
  /** The text box's height: overflowing lines are cut to the last that fits, ending in "…". */
  maxHeight?: number | undefined;
  /** At most this many lines; the last ends in "…" when the text goes on. */
  maxLines?: number | undefined;
  /** autoFit: fontSize shrinks, down to this, until the text fits maxWidth x maxHeight, maxLines. */
  minFontSize?: number | undefined;
  /** BCP 47 language: which CJK font draws Han, and the locale of line breaking. */
  lang?: string | undefined;
  color: Rgba;
  /** An outline `width` pixels wide centred on the glyphs' outline, drawn under the fill. */
  stroke?: { width: number; color: Rgba } | undefined;
  shadow?: { color: Rgba; offsetX: number; offsetY: number; blur: number } | undefined;
  /** A box behind the block of lines, `padding` pixels around it (default: DEFAULT_BOX_PADDING_EM of the size drawn). */
  background?: { color: Rgba; padding?: number | undefined; radius: number } | undefined;
}

/** An RGBA8 raster, rows top to bottom, straight alpha. */
export interface Raster {
  data: Buffer;
  width: number;
  height: number;
}

/** A drawn block of text: the raster holds every pixel of ink (and box), wherever it reaches. */
export interface TextRaster extends Raster {
  /** The raster's top-left relative to the text box's top-left (negative: ink left of / above it). */
  offsetX: number;
  offsetY: number;
  /** The text box: the block of lines, as wide as its longest line. Placement is by this box. */
  boxWidth: number;
  boxHeight: number;
  /** The font size drawn (smaller than asked when autoFit shrank it). */
  fontSize: number;
  lines: number;
  /** Lines were cut (maxLines or maxHeight) and the last ends in "…". */
  truncated: boolean;
  /** Characters no font of the chain has: drawn as U+FFFD, the replacement character. */
  missing: string[];
}

const REPLACEMENT = '\uFFFD';

/** The paragraph direction by the first strong character (the bidi algorithm's rules P2-P3). */
export function baseDirection(text: string): 'ltr' | 'rtl' {
  for (const ch of text) {
    if (
      /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Adlam}]/u.test(ch)
    )
      return 'rtl';
    if (/\p{L}/u.test(ch)) return 'ltr';
  }
  return 'ltr';
}

const colour = (ck: CanvasKit, c: Rgba) => ck.Color(c[0], c[1], c[2], c[3] / 255);

/** Draws a text with its text box's top-left at (x, y). */
type Pass = (canvas: Canvas, x: number, y: number) => void;

interface Built {
  p: Paragraph;
  fontSize: number;
  maxLines: number | undefined;
  width: number;
}

class Layout {
  constructor(
    readonly ck: CanvasKit,
    readonly reg: FontRegistry,
    readonly text: string,
    readonly style: TextStyle,
    readonly families: string[],
  ) {}

  textStyle(fontSize: number, color: Rgba): CkTextStyle {
    const { ck, style } = this;
    return {
      color: colour(ck, color),
      fontFamilies: this.families,
      fontSize,
      heightMultiplier: style.lineHeight,
      halfLeading: true,
      letterSpacing: style.letterSpacing ?? 0,
      ...(style.lang ? { locale: style.lang } : {}),
    };
  }

  /** A paragraph of the text; `paint` (a stroke, a shadow) replaces the colour when given. */
  build(fontSize: number, maxLines: number | undefined, color: Rgba, opts: { paint?: Paint } = {}) {
    const { ck, style } = this;
    const ts = this.textStyle(fontSize, color);
    const paraStyle = new ck.ParagraphStyle({
      textStyle: ts,
      textAlign: { left: ck.TextAlign.Left, center: ck.TextAlign.Center, right: ck.TextAlign.Right }[style.align],
      textDirection: baseDirection(this.text) === 'rtl' ? ck.TextDirection.RTL : ck.TextDirection.LTR,
      ...(maxLines !== undefined ? { maxLines, ellipsis: ELLIPSIS } : {}),
    });
    const builder = ck.ParagraphBuilder.MakeFromFontProvider(paraStyle, this.reg.provider);
    if (opts.paint) {
      const clear = new ck.Paint();
      clear.setColor(ck.TRANSPARENT);
      builder.pushPaintStyle(ts, opts.paint, clear);
      builder.addText(this.text);
      builder.pop();
      clear.delete();
    } else builder.addText(this.text);
    const p = builder.build();
    builder.delete();
    return p;
  }

  /** Lays out at `fontSize`: whether it fits the box, and the paragraph (cut to fit when not). */
  fit(fontSize: number): { built: Built; fits: boolean } {
    const { style } = this;
    const p = this.build(fontSize, style.maxLines, style.color);
    p.layout(style.maxWidth);
    let fits = !p.didExceedMaxLines();
    let maxLines = style.maxLines;
    if (style.maxHeight !== undefined && p.getHeight() > style.maxHeight + 0.5) {
      fits = false;
      const lines = p.getLineMetrics();
      const inside = lines.filter((l) => l.baseline + l.descent <= style.maxHeight! + 0.5).length;
      maxLines = Math.max(1, Math.min(inside, maxLines ?? inside));
    }
    if (maxLines !== style.maxLines) {
      p.delete();
      const cut = this.build(fontSize, maxLines, style.color);
      cut.layout(style.maxWidth);
      return { built: { p: cut, fontSize, maxLines, width: style.maxWidth }, fits };
    }
    return { built: { p, fontSize, maxLines, width: style.maxWidth }, fits };
  }

  /** autoFit: the largest size in [minFontSize, fontSize] (half-pixel steps) that fits. */
  fitted(): { built: Built; truncated: boolean } {
    const { style } = this;
    const first = this.fit(style.fontSize);
    if (first.fits || style.minFontSize === undefined || style.minFontSize >= style.fontSize)
      return { built: first.built, truncated: !first.fits };
    first.built.p.delete();
    const atMin = this.fit(style.minFontSize);
    if (!atMin.fits) return { built: atMin.built, truncated: true };
    let lo = atMin.built;
    let lo2 = Math.round(style.minFontSize * 2);
    let hi2 = Math.round(style.fontSize * 2);
    while (hi2 - lo2 > 1) {
      const mid = (lo2 + hi2) >> 1;
      const t = this.fit(mid / 2);
      if (t.fits) {
        lo.p.delete();
        lo = t.built;
        lo2 = mid;
      } else {
        t.built.p.delete();
        hi2 = mid;
      }
    }
    return { built: lo, truncated: false };
  }
}

/** Replaces the characters no font of `families` has by U+FFFD (found by a layout of the text). */
/** `text` with each of `missing` replaced by U+FFFD. */
function replaceMissing(text: string, missing: readonly string[]): string {
  let out = '';
  for (const ch of text) out += missing.includes(ch) ? REPLACEMENT : ch;
  return out;
}

/** The code points of a layout's text that no font of its chain has. */
function unresolvedOf(layout: Layout): Set<number> {
  const p = layout.build(layout.style.fontSize, undefined, layout.style.color);
  p.layout(1e6);
  const out = new Set(p.unresolvedCodepoints());
  p.delete();
  return out;
}

async function prepareLayout(text: string, style: TextStyle): Promise<{ layout: Layout; missing: string[] }> {
  return layoutWith(await fontRegistry(), text, style);
}

function layoutWith(reg: FontRegistry, text: string, style: TextStyle): { layout: Layout; missing: string[] } {
  const chainFor = (t: string, unresolved?: Set<number>) =>
    new Layout(reg.ck, reg, t, style, reg.chain(t, style.font, style.weight, style.lang, unresolved));
  const first = chainFor(text);
  let unresolved = unresolvedOf(first);
  if (unresolved.size === 0) return { layout: first, missing: [] };
  // A subset file's declared range can promise a character its font lacks: look further.
  const wider = chainFor(text, unresolved);
  unresolved = unresolvedOf(wider);
  if (unresolved.size === 0) return { layout: wider, missing: [] };
  const missing = [...new Set(Array.from(text).filter((ch) => unresolved.has(ch.codePointAt(0)!)))];
  return { layout: chainFor(replaceMissing(text, missing)), missing };
}

/** Lays the paragraph out again as wide as its longest line, so alignment is within the block. */
function tighten(built: Built): { width: number; height: number } {
  const { p } = built;
  const lines = p.getLineMetrics().length;
  const width = Math.min(built.width, Math.ceil(p.getLongestLine()));
  if (width < built.width) {
    p.layout(width);
    if (p.getLineMetrics().length !== lines) p.layout(built.width);
    else built.width = width;
  }
  return { width: Math.max(1, Math.ceil(built.width)), height: Math.max(1, Math.ceil(p.getHeight())) };
}

/** A cleared `w` x `h` surface with `draw` drawn on it: its pixels, RGBA8 straight alpha, rows top down. */
function drawSurface(ck: CanvasKit, w: number, h: number, draw: (canvas: Canvas) => void): Uint8Array {
  const surface = ck.MakeSurface(w, h);
  if (!surface) throw new Error(`could not make a ${w}x${h} surface for text`);
  try {
    const canvas = surface.getCanvas();
    canvas.clear(ck.TRANSPARENT);
    draw(canvas);
    const img = surface.makeImageSnapshot();
    const px = readRgba(ck, img, w, h);
    img.delete();
    if (!px) throw new Error('could not read the text surface back');
    return px;
  } finally {
    surface.delete();
  }
}

/**
 * Draws `draw` into a surface with `pad` pixels around the text box and returns the pixels,
 * cropped to what was drawn. Ink that touches the surface's edge could have gone on past it: the
 * surface is then drawn again with twice the margin, so nothing is ever clipped.
 */
function drawInked(
  ck: CanvasKit,
  box: { width: number; height: number },
  pad0: number,
  passes: Pass[],
): { rasters: Raster[]; offsetX: number; offsetY: number } {
  let pad = Math.ceil(pad0);
  for (;;) {
    const w = box.width + 2 * pad;
    const h = box.height + 2 * pad;
    const images = passes.map((pass) => drawSurface(ck, w, h, (canvas) => pass(canvas, pad, pad)));
    // The ink's bounding box over every pass (the lit caption has the same glyphs).
    let x0 = w;
    let y0 = h;
    let x1 = -1;
    let y1 = -1;
    for (const px of images) {
      for (let y = 0; y < h; y++) {
        const row = y * w * 4;
        for (let x = 0; x < w; x++) {
          if (px[row + x * 4 + 3] === 0) continue;
          if (x < x0) x0 = x;
          if (x > x1) x1 = x;
          if (y < y0) y0 = y;
          if (y > y1) y1 = y;
        }
      }
    }
    if (x1 < 0) {
      // Nothing drawn (only spaces): one transparent pixel at the box's corner.
      return { rasters: images.map(() => ({ data: Buffer.alloc(4), width: 1, height: 1 })), offsetX: 0, offsetY: 0 };
    }
    if ((x0 === 0 || y0 === 0 || x1 === w - 1 || y1 === h - 1) && pad < 4096) {
      pad *= 2;
      continue;
    }
    const cw = x1 - x0 + 1;
    const chh = y1 - y0 + 1;
    const rasters = images.map((px) => {
      const data = Buffer.alloc(cw * chh * 4);
      for (let y = 0; y < chh; y++) {
        const from = ((y + y0) * w + x0) * 4;
        data.set(px.subarray(from, from + cw * 4), y * cw * 4);
      }
      return { data, width: cw, height: chh };
    });
    return { rasters, offsetX: x0 - pad, offsetY: y0 - pad };
  }
}

/** The padding of the box behind the text, at the size drawn (autoFit shrinks the default). */
export function boxPadding(style: TextStyle, fontSize: number): number {
  if (!style.background) return 0;
  return style.background.padding ?? fontSize * DEFAULT_BOX_PADDING_EM;
}

/** How far ink can reach outside the text box: marks above and below, overhangs, effects. */
function marginFor(style: TextStyle, fontSize: number): number {
  const sh = style.shadow;
  return (
    fontSize * 0.6 +
    (style.stroke?.width ?? 0) +
    (sh ? 3 * sh.blur + Math.max(Math.abs(sh.offsetX), Math.abs(sh.offsetY)) : 0) +
    boxPadding(style, fontSize) +
    4
  );
}

/** The drawing passes of a laid-out text: box, stroke (with the shadow), fill. */
function passesFor(
  layout: Layout,
  built: Built,
  box: { width: number; height: number },
  fill: Rgba,
  withBox: boolean,
  withShadow: boolean,
): { draw: Pass; dispose: () => void } {
  const { ck, style } = layout;
  const disposables: { delete(): void }[] = [];
  const steps: Pass[] = [];
  const bg = style.background;
  if (bg && withBox) {
    const padding = boxPadding(style, built.fontSize);
    steps.push((canvas, x, y) => {
      const paint = new ck.Paint();
      paint.setAntiAlias(true);
      paint.setColor(colour(ck, bg.color));
      // The box is the first thing on a cleared surface: copying its colour is the same as blending
      // it, and ~20x faster in CanvasKit's WebAssembly (4.6 ms against 0.2 ms for a caption's box).
      paint.setBlendMode(ck.BlendMode.Src);
      const r = ck.RRectXY(
        ck.LTRBRect(x - padding, y - padding, x + box.width + padding, y + box.height + padding),
        bg.radius,
        bg.radius,
      );
      canvas.drawRRect(r, paint);
      paint.delete();
    });
  }
  const stroke = style.stroke && style.stroke.width > 0 ? style.stroke : undefined;
  /** The glyphs as laid out, drawn with `paint`. */
  const glyphs = (paint: Paint, color: Rgba) => {
    const p = layout.build(built.fontSize, built.maxLines, color, { paint });
    p.layout(built.width);
    disposables.push(p, paint);
    return p;
  };
  const strokePaint = (color: Rgba) => {
    const paint = new ck.Paint();
    paint.setAntiAlias(true);
    paint.setStyle(ck.PaintStyle.Stroke);
    paint.setStrokeJoin(ck.StrokeJoin.Round);
    paint.setStrokeCap(ck.StrokeCap.Round);
    // Centred on the glyph's outline: half of it shows outside, under the fill.
    paint.setStrokeWidth(stroke!.width);
    paint.setColor(colour(ck, color));
    return paint;
  };
  const fillPaint = (color: Rgba) => {
    const paint = new ck.Paint();
    paint.setAntiAlias(true);
    paint.setColor(colour(ck, color));
    return paint;
  };
  const sh = style.shadow;
  if (sh && withShadow) {
    // The shadow of the glyphs and their stroke together: both shapes drawn opaque into a layer,
    // which is blurred (SkParagraph's radius-to-sigma) and laid down at the shadow's alpha once, so
    // where the stroke overlaps the fill the shadow is not darker.
    const opaque: Rgba = [sh.color[0], sh.color[1], sh.color[2], 255];
    const shapes = [...(stroke ? [glyphs(strokePaint(opaque), opaque)] : []), glyphs(fillPaint(opaque), opaque)];
    const layerPaint = new ck.Paint();
    layerPaint.setAlphaf(sh.color[3] / 255);
    if (sh.blur > 0) {
      const sigma = 0.57735 * sh.blur + 0.5;
      const blur = ck.ImageFilter.MakeBlur(sigma, sigma, ck.TileMode.Decal, null);
      layerPaint.setImageFilter(blur);
      disposables.push(blur);
    }
    disposables.push(layerPaint);
    steps.push((canvas, x, y) => {
      canvas.saveLayer(layerPaint);
      for (const p of shapes) canvas.drawParagraph(p, x + sh.offsetX, y + sh.offsetY);
      canvas.restore();
    });
  }
  if (stroke) {
    const sp = glyphs(strokePaint(stroke.color), stroke.color);
    steps.push((canvas, x, y) => canvas.drawParagraph(sp, x, y));
  }
  const fp = glyphs(fillPaint(fill), fill);
  steps.push((canvas, x, y) => canvas.drawParagraph(fp, x, y));
  return {
    draw: (canvas, x, y) => {
      for (const step of steps) step(canvas, x, y);
    },
    dispose: () => {
      for (const d of disposables) d.delete();
    },
  };
}

/** A wrapped, aligned, styled block of text, with every pixel of its ink. */
export async function rasteriseText(text: string, style: TextStyle): Promise<TextRaster> {
  const { layout, missing } = await prepareLayout(text, style);
  const { built, truncated } = layout.fitted();
  try {
    const box = tighten(built);
    const fill = passesFor(layout, built, box, style.color, true, true);
    try {
      const { rasters, offsetX, offsetY } = drawInked(layout.ck, box, marginFor(style, built.fontSize), [fill.draw]);
      return {
        ...rasters[0]!,
        offsetX,
        offsetY,
        boxWidth: box.width,
        boxHeight: box.height,
        fontSize: built.fontSize,
        lines: built.p.getLineMetrics().length,
        truncated,
        missing,
      };
    } finally {
      fill.dispose();
    }
  } finally {
    built.p.delete();
  }
}

/** Draws a text again, larger (textZoomer). */
export interface TextZoomer {
  /** The raster at `scale` times its texels (zoom-rasters.ts zoomedSize): the same rectangle of the same picture. */
  draw(scale: number): Raster;
  dispose(): void;
}

/**
 * Copies of `r`, the raster rasteriseText (or rasteriseTextUnits: the same drawing) made of
 * `text` in `style`, with more texels for a zoomed layer (worker/prepare/zoom-rasters.ts): the
 * same layout and passes, drawn scaled into the rectangle of the text box that `r` holds, so the
 * glyphs are drawn at the size they will be shown instead of magnified.
 */
export async function textZoomer(text: string, style: TextStyle, r: TextRaster): Promise<TextZoomer> {
  const { layout } = await prepareLayout(text, style);
  const { built } = layout.fitted();
  const fill = passesFor(layout, built, tighten(built), style.color, true, true);
  return {
    draw(scale) {
      const { width, height } = zoomedSize(r, scale);
      const px = drawSurface(layout.ck, width, height, (canvas) => {
        canvas.scale(width / r.width, height / r.height);
        fill.draw(canvas, -r.offsetX, -r.offsetY);
      });
      return { data: Buffer.from(px.buffer, px.byteOffset, px.byteLength), width, height };
    },
    dispose() {
      fill.dispose();
      built.p.delete();
    },
  };
}

/** The width of `text` on one line (for grouping caption words into lines). */
export async function measure(text: string, style: TextStyle): Promise<number> {
  const { layout } = await prepareLayout(text, style);
  const p = layout.build(style.fontSize, undefined, style.color);
  p.layout(1e6);
  const w = p.getMaxIntrinsicWidth();
  p.delete();
  return w;
}

/** A rectangle of a raster, in its pixels. */
interface RasterRect {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/** A caption: its words in their colour, the same glyphs lit, and where each word is. */
export interface CaptionRaster {
  raster: TextRaster;
  /** The same glyphs (and stroke) in the highlight colour, no box, no shadow, same size. */
  lit: Raster;
  /** Per word, the rectangles of `lit` that show it (more than one when it wraps or mixes directions). */
  words: RasterRect[][];
}

/** Joins a rectangle to the one before when they touch on the same line (one layer, not one per glyph cluster). */
function mergeTouching(out: RasterRect[], r: RasterRect): RasterRect[] {
  const last = out[out.length - 1];
  if (last && last.y0 === r.y0 && last.y1 === r.y1 && r.x0 <= last.x1 + 1 && r.x1 >= last.x0 - 1) {
    last.x0 = Math.min(last.x0, r.x0);
    last.x1 = Math.max(last.x1, r.x1);
  } else out.push({ ...r });
  return out;
}

/** A caption's word: its text, and whether it is written with no space before the next. */
export interface CaptionWord {
  text: string;
  joinsNext?: boolean | undefined;
}

/** A caption's text and each word's range in it (UTF-16 units): words joined by a space unless joined. */
export function captionText(words: readonly CaptionWord[]): { text: string; ranges: [number, number][] } {
  let text = '';
  const ranges: [number, number][] = [];
  words.forEach((w, i) => {
    ranges.push([text.length, text.length + w.text.length]);
    text += w.text;
    if (i < words.length - 1 && !w.joinsNext) text += ' ';
  });
  return { text, ranges };
}

/**
 * A caption: the words joined by spaces (pieces of unspaced scripts joined as written) and laid out as any text (so right-to-left captions
 * are in visual order, CJK captions wrap). Each word's rectangles come from the layout's
 * ranges: a lit word is exactly its glyphs, in whichever direction and on whichever line.
 */
export async function rasteriseCaption(
  words: readonly CaptionWord[],
  style: TextStyle,
  highlight: Rgba,
): Promise<CaptionRaster> {
  // A character replaced by U+FFFD keeps its UTF-16 length only when it is in the BMP: the ranges
  // are taken from the words as laid out.
  const probe = await prepareLayout(captionText(words).text, style);
  const laid =
    probe.missing.length === 0 ? words : words.map((w) => ({ ...w, text: replaceMissing(w.text, probe.missing) }));
  const { text, ranges } = captionText(laid);
  const { layout, missing } = probe.missing.length === 0 ? probe : await prepareLayout(text, style);
  const { built, truncated } = layout.fitted();
  const { ck } = layout;
  try {
    const box = tighten(built);
    const lines = built.p.getLineMetrics();
    const base = passesFor(layout, built, box, style.color, true, true);
    const lit = passesFor(layout, built, box, highlight, false, false);
    try {
      const { rasters, offsetX, offsetY } = drawInked(ck, box, marginFor(style, built.fontSize), [base.draw, lit.draw]);
      const [raster, litRaster] = rasters as [Raster, Raster];
      // A word's band: its line's, split halfway to the lines around it, the outer ones to the edge.
      const band = (y: number) => {
        const i = Math.max(
          0,
          lines.findIndex((l) => y < l.baseline + l.descent),
        );
        const l = lines[i] ?? lines[lines.length - 1]!;
        const top = i === 0 ? -1e6 : (lines[i - 1]!.baseline + lines[i - 1]!.descent + l.baseline - l.ascent) / 2;
        const next = lines[i + 1];
        const bottom = next ? (l.baseline + l.descent + next.baseline - next.ascent) / 2 : 1e6;
        return [top, bottom] as const;
      };
      const clampX = (v: number) => Math.max(0, Math.min(raster.width, v));
      const clampY = (v: number) => Math.max(0, Math.min(raster.height, v));
      const wordRects = ranges.map(([s, e]) =>
        built.p
          .getRectsForRange(s, e, ck.RectHeightStyle.Max, ck.RectWidthStyle.Tight)
          .map((r) => {
            const [left, top, right, bottom] = r.rect;
            const [b0, b1] = band((top! + bottom!) / 2);
            return {
              x0: clampX(Math.floor(left! - offsetX)),
              x1: clampX(Math.ceil(right! - offsetX)),
              y0: clampY(Math.floor(b0 - offsetY)),
              y1: clampY(Math.ceil(b1 - offsetY)),
            };
          })
          .filter((r) => r.x1 > r.x0 && r.y1 > r.y0)
          .reduce(mergeTouching, []),
      );
      return {
        raster: {
          ...raster,
          offsetX,
          offsetY,
          boxWidth: box.width,
          boxHeight: box.height,
          fontSize: built.fontSize,
          lines: lines.length,
          truncated,
          missing,
        },
        lit: litRaster,
        words: wordRects,
      };
    } finally {
      base.dispose();
      lit.dispose();
    }
  } finally {
    built.p.delete();
  }
}

/**
 * How many lines `text` takes at `style.maxWidth` (no line limit), synchronously once the font
 * registry is loaded (caption grouping asks this for every word it adds).
 */
export function lineCount(reg: FontRegistry, text: string, style: TextStyle): number {
  const { layout } = layoutWith(reg, text, style);
  const p = layout.build(style.fontSize, undefined, style.color);
  p.layout(style.maxWidth);
  const n = p.getLineMetrics().length;
  p.delete();
  return n;
}

/** One laid-out line: its characters and where its advance box lies in the text box. */
export interface LaidOutLine {
  text: string;
  left: number;
  width: number;
}

/** How `text` breaks into lines in `style` (the lines drawn, "…" included when cut). */
export async function layoutLines(
  text: string,
  style: TextStyle,
): Promise<{ lines: LaidOutLine[]; fontSize: number; truncated: boolean; width: number; height: number }> {
  const { layout } = await prepareLayout(text, style);
  const { built, truncated } = layout.fitted();
  try {
    const box = tighten(built);
    const lines = built.p.getLineMetrics().map((l) => ({
      text: layout.text.slice(l.startIndex, l.endExcludingWhitespaces),
      left: l.left,
      width: l.width,
    }));
    return { lines, fontSize: built.fontSize, truncated, ...box };
  } finally {
    built.p.delete();
  }
}

/** A text's units (words or grapheme clusters) and the raster rectangles that show each. */
export interface TextUnitsRaster {
  raster: TextRaster;
  /**
   * Per unit, in reading (logical) order, the rectangles of `raster` it shows: together they
   * tile the raster (each line's band split between its units, the outer ones out to the
   * raster's edges), so every pixel of ink belongs to exactly one unit and all of them together
   * are the whole text as drawn.
   */
  units: RasterRect[][];
}

/**
 * A text's reveal units as UTF-16 ranges of `text`: grapheme clusters (Intl.Segmenter, so a
 * Devanagari conjunct, an Arabic letter with its marks or an emoji with its modifiers stays whole)
 * or words (punctuation joins the word before it); whitespace is no unit.
 */
export function unitRanges(text: string, unit: 'word' | 'letter', lang?: string): [number, number][] {
  const seg = new Intl.Segmenter(lang, { granularity: unit === 'letter' ? 'grapheme' : 'word' });
  const out: [number, number][] = [];
  for (const s of seg.segment(text)) {
    if (/^\s+$/u.test(s.segment)) continue;
    const range: [number, number] = [s.index, s.index + s.segment.length];
    const last = out[out.length - 1];
    // A word's trailing punctuation ("Hello," "ok!") reveals with it.
    if (unit === 'word' && s.isWordLike === false && last && last[1] === s.index) last[1] = range[1];
    else out.push(range);
  }
  return out;
}

/** Like rasteriseText, with the rectangles of each word or letter (see TextUnitsRaster). */
export async function rasteriseTextUnits(
  text: string,
  style: TextStyle,
  unit: 'word' | 'letter',
): Promise<TextUnitsRaster> {
  const { layout, missing } = await prepareLayout(text, style);
  const { built, truncated } = layout.fitted();
  const { ck } = layout;
  try {
    const box = tighten(built);
    const lines = built.p.getLineMetrics();
    const fill = passesFor(layout, built, box, style.color, true, true);
    try {
      const { rasters, offsetX, offsetY } = drawInked(ck, box, marginFor(style, built.fontSize), [fill.draw]);
      const raster = rasters[0]!;
      // Each line's band: split halfway to the lines around it, the outer ones out to the raster's edges.
      const bands = lines.map((l, i) => {
        const prev = lines[i - 1];
        const next = lines[i + 1];
        const top = prev ? (prev.baseline + prev.descent + l.baseline - l.ascent) / 2 - offsetY : 0;
        const bottom = next ? (l.baseline + l.descent + next.baseline - next.ascent) / 2 - offsetY : raster.height;
        return [Math.max(0, Math.round(top)), Math.min(raster.height, Math.round(bottom))] as const;
      });
      const bandOf = (y: number) => {
        const i = lines.findIndex((l) => y < l.baseline + l.descent);
        return i < 0 ? lines.length - 1 : i;
      };
      // Every unit's glyph boxes, by line.
      const perLine: { unit: number; x0: number; x1: number }[][] = lines.map(() => []);
      unitRanges(layout.text, unit, style.lang).forEach(([s, e], u) => {
        for (const r of built.p.getRectsForRange(s, e, ck.RectHeightStyle.Max, ck.RectWidthStyle.Tight)) {
          const [left, top, right, bottom] = r.rect;
          if (!(right! > left!)) continue;
          perLine[bandOf((top! + bottom!) / 2)]!.push({ unit: u, x0: left! - offsetX, x1: right! - offsetX });
        }
      });
      const units: RasterRect[][] = [];
      perLine.forEach((boxes, i) => {
        boxes.sort((a, b) => a.x0 - b.x0);
        const [y0, y1] = bands[i]!;
        boxes.forEach((b, j) => {
          const prev = boxes[j - 1];
          const next = boxes[j + 1];
          // Cut halfway between neighbouring glyph boxes: ink reaching past its box (italics,
          // stroke, shadow) stays with the nearer unit, and nothing falls between two units.
          const x0 = prev ? Math.round((prev.x1 + b.x0) / 2) : 0;
          const x1 = next ? Math.round((b.x1 + next.x0) / 2) : raster.width;
          const rect = { x0: Math.max(0, x0), x1: Math.min(raster.width, x1), y0, y1 };
          if (rect.x1 <= rect.x0 || rect.y1 <= rect.y0) return;
          const own = units[b.unit] ?? [];
          own.push(rect);
          units[b.unit] = own;
        });
      });
      return {
        raster: {
          ...raster,
          offsetX,
          offsetY,
          boxWidth: box.width,
          boxHeight: box.height,
          fontSize: built.fontSize,
          lines: lines.length,
          truncated,
          missing,
        },
        units: Array.from(units, (u) => u ?? []),
      };
    } finally {
      fill.dispose();
    }
  } finally {
    built.p.delete();
  }
}
