/**
 * Text styling read back from decoded frames: one real movie (renderMovie, real ffmpeg), a scene
 * per case, and each feature checked in the pixels (and by OCR where reading is the point), never
 * in the renderer's own rasters. 640x360 at 10 fps, encoded at quality "fast" (x264 CRF 20, yuv420p:
 * colour is shared by each 2x2 block of pixels, so colour edges are measured to a few pixels). The
 * frames read are left in STYLING_FRAMES_DIR (default: $TMPDIR/styling-frames) to look at.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { validateMovie, voiceById } from '../../movie/index.ts';
import { EspeakClient } from '../../worker/prepare/speech/espeak.ts';
import { timeWords } from '../../worker/prepare/speech/word-timing.ts';
import type { WorkerConfig } from '../../worker/run/prepare-render.ts';
import { renderMovie } from '../../worker/run/render-movie.ts';
import { frameRgb } from '../worker/media.ts';
import { ocr, prepareForOcr, similarity } from './ocr.ts';

const config: WorkerConfig = { ffmpegPath: 'ffmpeg', allowPrivateUrls: true, env: process.env };
const dir = mkdtempSync(join(tmpdir(), 'fw-styling-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const FRAMES_DIR = process.env.STYLING_FRAMES_DIR ?? join(tmpdir(), 'styling-frames');

const W = 640;
const H = 360;
const FPS = 10;
/** Three frames a scene; the middle one is read. */
const SCENE_SEC = 0.3;

type Rgb = readonly [number, number, number];
type Is = (p: Rgb) => boolean;
interface Rect {
  x0: number;
  y0: number;
  /** Exclusive. */
  x1: number;
  y1: number;
}
/** Inclusive bounds of the pixels found, and how many. */
interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  count: number;
}

const white: Is = ([r, g, b]) => Math.min(r, g, b) > 200;
const green: Is = ([r, g, b]) => g > 180 && r < 90 && b < 90;
const red: Is = ([r, g, b]) => r > 170 && g < 90 && b < 90;
const yellow: Is = ([r, g, b]) => r > 200 && g > 150 && b < 100;
/** Dark ink on white, or a black shadow on grey. */
const dark: Is = ([r, g, b]) => Math.max(r, g, b) < 60;
/** Anything that is not the white background (black or coloured ink). */
const notWhite: Is = ([r, g, b]) => Math.min(r, g, b) < 150;

/** A decoded frame (RGB24, BT.709 as tagged) and what the tests measure in it. */
class Frame {
  constructor(
    readonly name: string,
    readonly rgb: Buffer,
  ) {
    assert.equal(rgb.length, W * H * 3, `${name}: no frame decoded`);
  }

  px(x: number, y: number): Rgb {
    const i = (y * W + x) * 3;
    return [this.rgb[i]!, this.rgb[i + 1]!, this.rgb[i + 2]!];
  }

  /** The bounding box of the pixels that are `is` inside `r` (default: the frame); undefined if none. */
  find(is: Is, r: Rect = { x0: 0, y0: 0, x1: W, y1: H }): Box | undefined {
    let b: Box | undefined;
    for (let y = r.y0; y < r.y1; y++) {
      for (let x = r.x0; x < r.x1; x++) {
        if (!is(this.px(x, y))) continue;
        if (!b) b = { x0: x, y0: y, x1: x, y1: y, count: 0 };
        b.x0 = Math.min(b.x0, x);
        b.x1 = Math.max(b.x1, x);
        b.y0 = Math.min(b.y0, y);
        b.y1 = Math.max(b.y1, y);
        b.count++;
      }
    }
    return b;
  }

  /** Like `find`, failing the test when nothing is found. */
  ink(is: Is, what: string, r?: Rect): Box {
    const b = this.find(is, r);
    assert.ok(b, `${this.name}: no ${what} pixels${r ? ` in ${JSON.stringify(r)}` : ''}`);
    return b;
  }

  /** Runs of consecutive rows of `r` holding at least one `is` pixel: the lines of ink. */
  bands(is: Is, r: Rect = { x0: 0, y0: 0, x1: W, y1: H }): Rect[] {
    const out: Rect[] = [];
    for (let y = r.y0; y < r.y1; y++) {
      const row = this.find(is, { x0: r.x0, x1: r.x1, y0: y, y1: y + 1 });
      const last = out[out.length - 1];
      if (!row) continue;
      if (last && last.y1 === y) {
        last.y1 = y + 1;
        last.x0 = Math.min(last.x0, row.x0);
        last.x1 = Math.max(last.x1, row.x1 + 1);
      } else out.push({ x0: row.x0, x1: row.x1 + 1, y0: y, y1: y + 1 });
    }
    return out;
  }

  png(): Promise<Buffer> {
    return sharp(this.rgb, { raw: { width: W, height: H, channels: 3 } })
      .png()
      .toBuffer();
  }
}

const near = (got: number, want: number, tolerance: number, what: string) =>
  assert.ok(Math.abs(got - want) <= tolerance, `${what}: ${got}, expected ${want} ± ${tolerance}`);

const SENTENCE = 'The quick brown fox jumps over the lazy dog by the river bank';
const ARABIC = 'اللغة العربية جميلة';

/** Scene id -> its background and elements (ids added); in movie order after the caption scene. */
const SCENES: Record<string, { background: string; elements: Record<string, unknown>[] }> = {
  box: {
    background: '#101010',
    elements: [
      { text: 'Box', fontSize: 48, position: { x: 100, y: 100 }, background: { color: '#00ff00', padding: 20 } },
      {
        text: 'Box',
        fontSize: 48,
        position: { x: 400, y: 100 },
        background: { color: '#00ff00', padding: 20, radius: 24 },
      },
    ],
  },
  stroke: {
    background: '#0000ff',
    elements: [
      { text: 'Stroke', fontSize: 72, position: { x: 40, y: 40 }, stroke: { width: 6, color: '#ff0000' } },
      { text: 'Stroke', fontSize: 72, position: { x: 40, y: 200 } },
    ],
  },
  shadow: {
    background: '#808080',
    elements: [{ text: 'Shadow', fontSize: 72, shadow: { color: '#000000', offsetX: 10, offsetY: 10, blur: 0 } }],
  },
  letterSpacing: {
    background: '#000000',
    elements: [
      { text: 'Spacing', fontSize: 48, position: { x: 40, y: 40 }, letterSpacing: 20 },
      { text: 'Spacing', fontSize: 48, position: { x: 40, y: 200 } },
    ],
  },
  align: {
    background: '#000000',
    // Each wraps before "of" at maxWidth 280 ("Left aligned lines" is 256 px wide, "... of" 296;
    // "Right aligned line" 259, "... of" 299), leaving a short second line: ragged lines.
    elements: [
      { text: 'Left aligned lines of text', fontSize: 32, position: { x: 20, y: 40 }, maxWidth: 280, align: 'left' },
      {
        text: 'Right aligned line of text',
        fontSize: 32,
        position: { x: 340, y: 40 },
        maxWidth: 280,
        align: 'right',
      },
    ],
  },
  maxLines: {
    background: '#ffffff',
    elements: [{ text: SENTENCE, fontSize: 40, color: '#000000', maxWidth: 560, maxLines: 1 }],
  },
  autoFit: {
    background: '#ffffff',
    elements: [
      {
        text: SENTENCE,
        fontSize: 80,
        color: '#000000',
        position: { x: 40, y: 100 },
        maxWidth: 560,
        maxHeight: 120,
        autoFit: { minFontSize: 10 },
      },
    ],
  },
  overhang: {
    background: '#000000',
    // lineHeight 0.5: a line box of 60 px for glyphs about 150 px tall, so a raster cut at the
    // text box (or at a line) would cut the ring, the accents and the descenders off.
    elements: [{ text: 'Ǻgjpqy', fontSize: 120, lineHeight: 0.5, stroke: { width: 20, color: '#ff0000' } }],
  },
  emoji: { background: '#ffffff', elements: [{ text: 'Hi 😀', fontSize: 96, color: '#000000' }] },
  missing: {
    background: '#ffffff',
    elements: [
      { text: 'ab', fontSize: 64, color: '#000000', position: { x: 40, y: 40 } },
      { text: 'abก', fontSize: 64, color: '#000000', position: { x: 40, y: 200 } },
    ],
  },
};

const valid = (doc: unknown) => {
  const r = validateMovie(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.findings));
  return r.value;
};

const frames = new Map<string, Frame>();
/** The caption's frames: one while its first word is spoken, one while its last is. */
let captionFirst: Frame | undefined;
let captionLast: Frame | undefined;

/** The frame for a scene (a case), failing the test when the render did not produce it. */
const frameOf = (name: string): Frame => {
  const f = frames.get(name);
  assert.ok(f, `no frame for ${name}: the render failed (see the hook failure)`);
  return f;
};

describe('text styling, read back from the rendered frames', () => {
  before(async () => {
    // The caption scene comes first, so its words' times are the voice's own. Its length is the
    // voice's, from the same espeak-ng the renderer speaks with, plus 0.3 s.
    const voice = voiceById('espeak-ar-sa');
    assert.ok(voice, 'no voice espeak-ar-sa');
    const espeak = new EspeakClient();
    let words: ReturnType<typeof timeWords>;
    try {
      const r = await espeak.synthesize(ARABIC, voice.engineVoice, join(dir, 'voice.pcm'));
      words = timeWords(ARABIC, r.words, r.samples / r.sampleRate);
    } finally {
      espeak.close();
    }
    assert.equal(words.length, 3, `espeak timed ${JSON.stringify(words)}`);
    const captionFrames = Math.ceil((words[2]!.endSec + 0.3) * FPS);
    const doc = {
      schema: 'v1',
      width: W,
      height: H,
      fps: FPS,
      quality: 'fast',
      scenes: [
        {
          id: 'caption',
          duration: captionFrames / FPS,
          background: '#ffffff',
          elements: [
            { id: 'vo', type: 'voice', text: ARABIC, voiceId: 'espeak-ar-sa' },
            { id: 'subs', type: 'subtitles', fontSize: 48, color: '#000000', highlightColor: '#ff0000' },
          ],
        },
        ...Object.entries(SCENES).map(([id, s]) => ({
          id,
          duration: SCENE_SEC,
          background: s.background,
          elements: s.elements.map((e, j) => ({ id: `${id}-${j}`, type: 'text', color: '#ffffff', ...e })),
        })),
      ],
    };
    const out = join(dir, 'styling.mp4');
    await renderMovie({ movie: valid(doc), output: out, config });

    // The middle of a word's time, as a frame number.
    const midFrame = (w: { startSec: number; endSec: number }) => Math.floor(((w.startSec + w.endSec) / 2) * FPS);
    const read = async (name: string, n: number) => new Frame(name, await frameRgb(out, n));
    captionFirst = await read('caption, first word', midFrame(words[0]!));
    captionLast = await read('caption, last word', midFrame(words[2]!));
    const perScene = Math.round(SCENE_SEC * FPS);
    const sceneFrames = await Promise.all(
      Object.keys(SCENES).map((name, i) => read(name, captionFrames + i * perScene + Math.floor(perScene / 2))),
    );
    for (const f of sceneFrames) frames.set(f.name, f);
  });

  after(async () => {
    const all = [captionFirst, captionLast, ...frames.values()].filter((f) => f !== undefined);
    if (all.length === 0) return;
    mkdirSync(FRAMES_DIR, { recursive: true });
    for (const f of readdirSync(FRAMES_DIR)) if (/^\d+-.+\.png$/.test(f)) rmSync(join(FRAMES_DIR, f));
    await Promise.all(
      all.map(async (f, i) =>
        sharp(await f.png()).toFile(
          join(FRAMES_DIR, `${String(i).padStart(2, '0')}-${f.name.replace(/[^A-Za-z0-9]+/g, '-')}.png`),
        ),
      ),
    );
  });

  it('background: a box `padding` px around the text block, square or with rounded corners', (t) => {
    const f = frameOf('box');
    const left = { x0: 0, y0: 0, x1: W / 2, y1: H };
    const box = f.ink(green, 'green box', left);
    const text = f.ink(white, 'white text', left);
    t.diagnostic(`box ${JSON.stringify(box)}, text ink ${JSON.stringify(text)}`);
    // position {100, 100} is the text block's top-left; the box reaches 20 px beyond it. One line
    // of 48 px is 58 px tall (lineHeight 1.2), so the box is 98 px tall.
    near(box.x0, 80, 1, 'box left');
    near(box.y0, 80, 1, 'box top');
    near(box.y1, 100 + 58 + 20 - 1, 1, 'box bottom');
    // Right: 20 px of padding past the text block's right edge, which is the advance of "Box"
    // (the ink ends a side bearing before it).
    assert.ok(box.x1 - text.x1 >= 20 && box.x1 - text.x1 <= 26, `box right ${box.x1 - text.x1} px past the ink`);
    // Solid: every pixel of the box around the text is green, the text's inside is the text's.
    const greenOnly = (r: Rect) => f.find((p) => !green(p), r) === undefined;
    assert.ok(greenOnly({ x0: box.x0 + 1, y0: box.y0 + 1, x1: box.x1, y1: text.y0 - 2 }), 'the band above the text');
    assert.ok(greenOnly({ x0: box.x0 + 1, y0: text.y1 + 3, x1: box.x1, y1: box.y1 }), 'the band below the text');
    assert.ok(greenOnly({ x0: box.x0 + 1, y0: box.y0 + 1, x1: text.x0 - 2, y1: box.y1 }), 'the band left of the text');
    assert.ok(greenOnly({ x0: text.x1 + 3, y0: box.y0 + 1, x1: box.x1, y1: box.y1 }), 'the band right of the text');
    // Square corners: the corner pixel is the box's; outside it, the scene.
    assert.ok(green(f.px(box.x0 + 1, box.y0 + 1)), `square corner ${f.px(box.x0 + 1, box.y0 + 1)}`);
    assert.ok(!green(f.px(box.x0 - 2, box.y0 - 2)), 'outside the box');

    // radius 24: the same box, its corners cut by a quarter circle.
    const right = { x0: W / 2, y0: 0, x1: W, y1: H };
    const round = f.ink(green, 'rounded green box', right);
    t.diagnostic(`rounded box ${JSON.stringify(round)}`);
    near(round.x0, 380, 1, 'rounded box left');
    near(round.y0, 80, 1, 'rounded box top');
    near(round.x1 - round.x0, box.x1 - box.x0, 1, 'rounded box width');
    near(round.y1 - round.y0, box.y1 - box.y0, 1, 'rounded box height');
    const bg: Rgb = [16, 16, 16];
    for (const [x, y] of [
      [round.x0 + 1, round.y0 + 1],
      [round.x1 - 1, round.y0 + 1],
      [round.x0 + 1, round.y1 - 1],
      [round.x1 - 1, round.y1 - 1],
    ] as const) {
      const p = f.px(x, y);
      assert.ok(
        p.every((v, i) => Math.abs(v - bg[i]!) <= 12),
        `rounded corner (${x}, ${y}) is ${p}, not the scene's ${bg}`,
      );
    }
    // The straight edges between the corners are the box's.
    assert.ok(green(f.px((round.x0 + round.x1) >> 1, round.y0 + 1)), 'top edge of the rounded box');
    assert.ok(green(f.px(round.x0 + 1, (round.y0 + round.y1) >> 1)), 'left edge of the rounded box');
  });

  it('stroke: red outline around white glyphs, half its width outside them; none without stroke', (t) => {
    const f = frameOf('stroke');
    const top = { x0: 0, y0: 0, x1: W, y1: H / 2 };
    const bottom = { x0: 0, y0: H / 2, x1: W, y1: H };
    const stroked = f.ink(white, 'white text (stroked)', top);
    const outline = f.ink(red, 'red stroke', top);
    const plain = f.ink(white, 'white text (plain)', bottom);
    const none = f.find(red, bottom);
    t.diagnostic(`stroked fill ${JSON.stringify(stroked)}, stroke ${JSON.stringify(outline)}`);
    t.diagnostic(`plain fill ${JSON.stringify(plain)}, red pixels without stroke: ${none?.count ?? 0}`);
    assert.equal(none, undefined, 'red pixels where no stroke was asked for');
    assert.ok(outline.count > 1500, `only ${outline.count} red pixels`);
    // Width 6, centred on the outline: 3 px show outside the fill on every side.
    for (const side of ['x0', 'y0'] as const)
      near(stroked[side] - outline[side], 3, 2, `stroke outside the fill (${side})`);
    for (const side of ['x1', 'y1'] as const)
      near(outline[side] - stroked[side], 3, 2, `stroke outside the fill (${side})`);
    // The stroke does not change the glyphs: the fill is as large as the unstroked text.
    near(stroked.x1 - stroked.x0, plain.x1 - plain.x0, 1, 'fill width, stroked vs plain');
    near(stroked.y1 - stroked.y0, plain.y1 - plain.y0, 1, 'fill height, stroked vs plain');
    // Red lies next to white: every red pixel is within 5 px of a white one.
    let far = 0;
    for (let y = outline.y0; y <= outline.y1; y++) {
      for (let x = outline.x0; x <= outline.x1; x++) {
        if (!red(f.px(x, y))) continue;
        const around = { x0: Math.max(0, x - 5), y0: Math.max(0, y - 5), x1: Math.min(W, x + 6), y1: y + 6 };
        if (!f.find(white, around)) far++;
      }
    }
    assert.equal(far, 0, `${far} red pixels more than 5 px from the white glyphs`);
  });

  it('shadow: a hard black copy 10 px right and down, nothing above or left of the glyphs', (t) => {
    const f = frameOf('shadow');
    const text = f.ink(white, 'white text');
    const shadow = f.ink(dark, 'black shadow');
    t.diagnostic(`text ${JSON.stringify(text)}, shadow ${JSON.stringify(shadow)}`);
    for (const side of ['x0', 'y0', 'x1', 'y1'] as const)
      near(shadow[side] - text[side], 10, 2, `shadow offset (${side})`);
    assert.equal(f.find(dark, { x0: 0, y0: 0, x1: W, y1: text.y0 }), undefined, 'shadow above the glyphs');
    assert.equal(f.find(dark, { x0: 0, y0: 0, x1: text.x0, y1: H }), undefined, 'shadow left of the glyphs');
    // blur 0: a hard edge, no grey halo beyond the dark pixels' box (mid-grey 128 is the scene).
    const halo = f.find(([r, g, b]) => Math.max(r, g, b) < 100, {
      x0: shadow.x1 + 3,
      y0: text.y0,
      x1: Math.min(W, shadow.x1 + 12),
      y1: shadow.y1 + 1,
    });
    assert.equal(halo, undefined, `a blurred edge right of the shadow: ${JSON.stringify(halo)}`);
  });

  it('letterSpacing: 20 px between characters widens "Spacing" by 6 x 20 px', (t) => {
    const f = frameOf('letterSpacing');
    const spaced = f.ink(white, 'spaced text', { x0: 0, y0: 0, x1: W, y1: H / 2 });
    const plain = f.ink(white, 'plain text', { x0: 0, y0: H / 2, x1: W, y1: H });
    const wSpaced = spaced.x1 - spaced.x0 + 1;
    const wPlain = plain.x1 - plain.x0 + 1;
    t.diagnostic(`ink width ${wSpaced} with letterSpacing 20, ${wPlain} without`);
    // Seven characters, six gaps between their ink.
    near(wSpaced - wPlain, 6 * 20, 3, 'extra width');
    // The same glyphs: as tall, starting at the same place.
    near(spaced.y1 - spaced.y0, plain.y1 - plain.y0, 1, 'ink height');
    near(spaced.x0, plain.x0, 1, 'ink left');
  });

  it('align: wrapped at maxWidth, left-aligned lines start at x, right-aligned ones end together', (t) => {
    const f = frameOf('align');
    const leftLines = f.bands(white, { x0: 0, y0: 0, x1: W / 2, y1: H });
    const rightLines = f.bands(white, { x0: W / 2, y0: 0, x1: W, y1: H });
    t.diagnostic(`left: ${JSON.stringify(leftLines)}`);
    t.diagnostic(`right: ${JSON.stringify(rightLines)}`);
    assert.equal(leftLines.length, 2, 'the left text wraps onto two lines');
    assert.equal(rightLines.length, 2, 'the right text wraps onto two lines');
    const [l1, l2] = leftLines as [Rect, Rect];
    const [r1, r2] = rightLines as [Rect, Rect];
    // Left: every line starts at the block's left edge, x = 20 (plus a side bearing).
    near(l1.x0, 22, 3, 'left line 1 start');
    near(l2.x0, 22, 3, 'left line 2 start');
    assert.ok(Math.abs(l1.x1 - l2.x1) > 100, 'the left lines end at different places (they are ragged)');
    // Right: every line ends at the same place; the longest starts at the block's left, x = 340,
    // and none goes past x + maxWidth.
    near(r1.x1, r2.x1, 2, 'right lines end together');
    near(Math.min(r1.x0, r2.x0), 342, 3, 'the longest right-aligned line starts at x');
    assert.ok(Math.abs(r1.x0 - r2.x0) > 100, 'the right lines start at different places (they are ragged)');
    for (const l of [l1, l2]) assert.ok(l.x1 <= 20 + 280, `a left line reaches ${l.x1}, past maxWidth`);
    for (const l of [r1, r2]) assert.ok(l.x1 <= 340 + 280, `a right line reaches ${l.x1}, past maxWidth`);
  });

  it('maxLines 1: one line of ink, the start of the sentence, ending in an ellipsis', async (t) => {
    const f = frameOf('maxLines');
    const lines = f.bands(dark);
    const got = await ocr(await prepareForOcr(await f.png(), { trim: true }), 'eng', 7);
    t.diagnostic(`lines of ink ${JSON.stringify(lines)}; read ${JSON.stringify(got)}`);
    assert.equal(lines.length, 1, 'one line of ink');
    assert.ok(lines[0]!.x1 - lines[0]!.x0 <= 560, 'the line fits maxWidth');
    const ellipsis = /(…|\.{2,})$/u;
    assert.match(got, ellipsis, 'the line ends in an ellipsis');
    const read = got.replace(ellipsis, '').trim();
    const prefix = Array.from(SENTENCE).slice(0, Array.from(read).length).join('');
    assert.ok(read.length >= 10 && read.length < SENTENCE.length * 0.8, `read ${read.length} characters`);
    const score = similarity(prefix, read);
    assert.ok(score >= 0.9, `similarity ${score.toFixed(3)} to the sentence's start ${JSON.stringify(prefix)}`);
  });

  it('autoFit with maxHeight 120: the whole sentence, smaller, inside the box', async (t) => {
    const f = frameOf('autoFit');
    const ink = f.ink(dark, 'text');
    const lines = f.bands(dark);
    const got = await ocr(await prepareForOcr(await f.png(), { trim: true }), 'eng');
    const score = similarity(SENTENCE, got);
    t.diagnostic(`ink ${JSON.stringify(ink)} (${ink.y1 - ink.y0 + 1} px tall), ${lines.length} lines`);
    t.diagnostic(`similarity ${score.toFixed(3)}; read ${JSON.stringify(got)}`);
    assert.ok(ink.y0 >= 100 - 2 && ink.y1 <= 100 + 120 + 2, `ink from y ${ink.y0} to ${ink.y1}, box 100-220`);
    assert.ok(ink.x0 >= 40 - 2 && ink.x1 <= 40 + 560 + 2, `ink from x ${ink.x0} to ${ink.x1}, box 40-600`);
    assert.ok(lines.length >= 2, 'more than one line (it wraps rather than shrinking to one)');
    assert.ok(!/…|\.{2,}/u.test(got), 'no ellipsis: nothing was cut');
    assert.ok(score >= 0.9, `similarity ${score.toFixed(3)} < 0.9: read ${JSON.stringify(got)}`);
  });

  it('never clipped: accents and descenders far outside a 60 px line box keep their stroke', (t) => {
    const f = frameOf('overhang');
    const fill = f.ink(white, 'white glyphs');
    const outline = f.ink(red, 'red stroke');
    t.diagnostic(`fill ${JSON.stringify(fill)} (${fill.y1 - fill.y0 + 1} px tall), stroke ${JSON.stringify(outline)}`);
    // The glyphs, ring to descender, are over twice the line box's 60 px.
    assert.ok(fill.y1 - fill.y0 + 1 >= 130, `the glyphs are ${fill.y1 - fill.y0 + 1} px tall`);
    // Width 20: 10 px of stroke beyond the fill on every side, above the ring and below the
    // descenders too (a raster cut at a fixed box would cut it there first).
    for (const side of ['x0', 'y0'] as const)
      near(fill[side] - outline[side], 10, 2, `stroke beyond the fill (${side})`);
    for (const side of ['x1', 'y1'] as const)
      near(outline[side] - fill[side], 10, 2, `stroke beyond the fill (${side})`);
    // And it is all in the frame, with the scene's black around it.
    assert.ok(outline.y0 > 0 && outline.y1 < H - 1 && outline.x0 > 0 && outline.x1 < W - 1, 'inside the frame');
  });

  it('emoji: a yellow colour glyph right of "Hi", where the layout puts it', (t) => {
    const f = frameOf('emoji');
    const face = f.ink(yellow, 'yellow emoji');
    const hi = f.ink(dark, '"Hi"', { x0: 0, y0: 0, x1: face.x0, y1: H });
    t.diagnostic(`emoji ${JSON.stringify(face)}, "Hi" ${JSON.stringify(hi)}`);
    assert.ok(face.count > 2000, `${face.count} yellow pixels`);
    // About one em (96 px) square.
    near(face.x1 - face.x0 + 1, 90, 20, 'emoji width');
    near(face.y1 - face.y0 + 1, 90, 20, 'emoji height');
    // "Hi" then a space then the emoji, on the same line.
    near(hi.x1 - hi.x0 + 1, 80, 25, '"Hi" width');
    const gap = face.x0 - hi.x1;
    assert.ok(gap >= 15 && gap <= 60, `${gap} px between "Hi" and the emoji`);
    assert.ok(face.y0 < hi.y1 && face.y1 > hi.y0, 'the emoji is on the line of "Hi"');
    // No black ink right of the emoji (the text is "Hi 😀", nothing after it).
    assert.equal(f.find(dark, { x0: face.x1 + 2, y0: 0, x1: W, y1: H }), undefined, 'ink right of the emoji');
  });

  it('a character no font covers (Thai "ก"): a visible glyph where it stands, not a gap', (t) => {
    const f = frameOf('missing');
    const ab = f.ink(dark, '"ab"', { x0: 0, y0: 0, x1: W, y1: H / 2 });
    const abx = f.ink(dark, '"abก"', { x0: 0, y0: H / 2, x1: W, y1: H });
    const extra = f.ink(dark, 'the replacement glyph', { x0: ab.x1 + 3, y0: H / 2, x1: W, y1: H });
    t.diagnostic(`"ab" ${JSON.stringify(ab)}, "abก" ${JSON.stringify(abx)}, past "ab" ${JSON.stringify(extra)}`);
    near(abx.x0, ab.x0, 1, 'the same "ab" start');
    assert.ok(abx.x1 - ab.x1 >= 20, `"abก" is only ${abx.x1 - ab.x1} px wider than "ab"`);
    // A glyph of its own, as tall as a letter at least, with ink in it (not a thin line).
    assert.ok(extra.y1 - extra.y0 + 1 >= 30, `the replacement is ${extra.y1 - extra.y0 + 1} px tall`);
    assert.ok(extra.count >= 150, `the replacement has ${extra.count} px of ink`);
  });

  it('subtitles, right to left: the first Arabic word lit is the rightmost, the last the leftmost', (t) => {
    assert.ok(captionFirst && captionLast, 'no caption frames: the render failed (see the hook failure)');
    for (const [f, first] of [
      [captionFirst, true],
      [captionLast, false],
    ] as const) {
      const caption = f.ink(notWhite, 'caption');
      const lit = f.ink(red, 'red (lit) word');
      const mid = (caption.x0 + caption.x1) / 2;
      t.diagnostic(`${f.name}: caption ${JSON.stringify(caption)}, lit ${JSON.stringify(lit)}`);
      // Bottom centre, one line.
      assert.ok(caption.y0 > H / 2, `caption at y ${caption.y0}`);
      assert.equal(f.bands(notWhite).length, 1, 'one line of caption');
      assert.ok(lit.count > 300, `${lit.count} red pixels`);
      if (first) {
        near(lit.x1, caption.x1, 3, 'the first word ends the line on the right');
        assert.ok(lit.x0 > mid, `the first word (from x ${lit.x0}) is in the right half (from ${mid})`);
      } else {
        near(lit.x0, caption.x0, 3, 'the last word starts the line on the left');
        assert.ok(lit.x1 < mid, `the last word (to x ${lit.x1}) is in the left half (to ${mid})`);
      }
    }
  });
});
