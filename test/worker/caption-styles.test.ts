import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { validateMovie } from '../../movie/index.ts';
import { prepare } from '../../worker/prepare/prepare.ts';
import type { WorkerConfig } from '../../worker/run/prepare-render.ts';
import { renderMovie } from '../../worker/run/render-movie.ts';
import { frameRgb, pixel } from './media.ts';

// The four caption styles told apart on decoded frames, in the middle of the second word: white
// words, a red highlight, on black, in the lower half of a 320x180 frame.
const config: WorkerConfig = { ffmpegPath: 'ffmpeg', allowPrivateUrls: true, env: process.env };
const dir = mkdtempSync(join(tmpdir(), 'fw-caption-styles-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const FPS = 25;
const movie = (style: string | undefined) => {
  const r = validateMovie({
    schema: 'v1',
    width: 320,
    height: 180,
    fps: FPS,
    scenes: [
      {
        id: 's',
        duration: 'voice',
        background: '#000000',
        elements: [
          { id: 'v', type: 'voice', text: 'one wonderful day', language: 'en-US' },
          {
            id: 'cc',
            type: 'subtitles',
            fontSize: 30,
            color: '#ffffff',
            highlightColor: '#ff0000',
            ...(style ? { style } : {}),
          },
        ],
      },
    ],
  });
  if (!r.ok) throw new Error(JSON.stringify(r.findings));
  return r.value;
};

/** What the caption area (the frame's lower half) holds: white and red pixels, and how wide the ink is. */
interface Look {
  white: number;
  red: number;
  inkWidth: number;
}

function look(rgb: Buffer): Look {
  let white = 0;
  let red = 0;
  let x0 = 320;
  let x1 = -1;
  for (let y = 90; y < 180; y++) {
    for (let x = 0; x < 320; x++) {
      const [r, g, b] = pixel(rgb, 320, x, y);
      if (Math.min(r, g, b) > 200) white++;
      if (r > 180 && g < 80 && b < 80) red++;
      if (Math.max(r, g, b) > 80) {
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
      }
    }
  }
  return { white, red, inkWidth: x1 < 0 ? 0 : x1 - x0 + 1 };
}

const looks = new Map<string, Look>();
/** The frame in the middle of "wonderful", the second word, as the speech times it. */
let frame: number;

before(async () => {
  const p = await prepare({
    movie: movie(undefined),
    format: 'mp4',
    tmpDir: mkdtempSync(join(dir, 'p-')),
    draft: false,
    watermark: false,
    codec: 'libx264',
    fetchPolicy: { allowPrivate: true },
    speech: {},
  });
  const words = p.captions.get('scenes[0].elements[1]')!;
  assert.deepEqual(
    words.map((w) => w.text),
    ['one', 'wonderful', 'day'],
  );
  const second = words[1]!;
  frame = Math.round(((second.startSec + Math.min(second.endSec, words[2]!.startSec)) / 2) * FPS);
  assert.ok(frame / FPS > second.startSec + 0.12 + 1 / FPS, 'past the pop-in of the word');
  for (const style of ['karaoke', 'pop', 'boxed', 'lines', 'default']) {
    const out = join(dir, `${style}.mp4`);
    await renderMovie({ movie: movie(style === 'default' ? undefined : style), output: out, config });
    looks.set(style, look(await frameRgb(out, frame)));
  }
});

describe('caption styles, in the middle of the second word', () => {
  it('karaoke (the default, unchanged): the whole line, the spoken word in the highlight', () => {
    const k = looks.get('karaoke')!;
    assert.ok(k.white > 50 && k.red > 50, JSON.stringify(k));
    assert.deepEqual(looks.get('default'), k);
  });

  it('lines: the whole line, as wide as karaoke, and no highlight', () => {
    const l = looks.get('lines')!;
    const k = looks.get('karaoke')!;
    assert.equal(l.red, 0, JSON.stringify(l));
    assert.ok(l.white > k.white, `every word white: ${JSON.stringify(l)} vs karaoke ${JSON.stringify(k)}`);
    assert.ok(Math.abs(l.inkWidth - k.inkWidth) <= 2, `${l.inkWidth} vs ${k.inkWidth}`);
  });

  it('pop: only the spoken word, in the highlight colour', () => {
    const p = looks.get('pop')!;
    const k = looks.get('karaoke')!;
    assert.equal(p.white, 0, JSON.stringify(p));
    assert.ok(p.red > 50, JSON.stringify(p));
    assert.ok(p.inkWidth < k.inkWidth * 0.7, `one word: ${p.inkWidth} vs the line's ${k.inkWidth}`);
  });

  it('boxed: only the spoken word, white on a box of the highlight colour', () => {
    const b = looks.get('boxed')!;
    const p = looks.get('pop')!;
    const k = looks.get('karaoke')!;
    assert.ok(b.white > 50, JSON.stringify(b));
    assert.ok(b.red > p.red * 2, `a filled box: ${b.red} red pixels vs pop's ${p.red}`);
    assert.ok(b.inkWidth < k.inkWidth * 0.8, `one word: ${b.inkWidth} vs the line's ${k.inkWidth}`);
    assert.ok(b.inkWidth > p.inkWidth, `the box reaches past the word: ${b.inkWidth} vs ${p.inkWidth}`);
  });
});
