import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ease, easingOf } from '../../../movie/easing.ts';
import { evaluateMotion } from '../../../movie/motion.ts';
import type { TextStyle } from './text-raster.ts';
import { rasteriseTextUnits, unitRanges } from './text-raster.ts';
import { unitTracks } from './text-reveal.ts';

const pieces = (text: string, unit: 'word' | 'letter') => unitRanges(text, unit).map(([s, e]) => text.slice(s, e));

describe('unitRanges', () => {
  it('letters are grapheme clusters: a Devanagari conjunct, an emoji with its skin tone, a flag stay whole', () => {
    assert.deepEqual(pieces('नमस्ते 👍🏽🇫🇷', 'letter'), ['न', 'म', 'स्ते', '👍🏽', '🇫🇷']);
    assert.deepEqual(pieces('مرحبا', 'letter'), ['م', 'ر', 'ح', 'ب', 'ا']);
  });
  it('words carry their punctuation; spaces are no unit', () => {
    assert.deepEqual(pieces('Hello, world! (ok)', 'word'), ['Hello,', 'world!', '(', 'ok)']);
  });
});

describe('unitTracks', () => {
  it('fade: unit i from start + i stagger over duration, with the easing', () => {
    const t = unitTracks({ unit: 'word', style: 'fade', stagger: 0.2, duration: 0.4, start: 0.1 }, 2, 40);
    assert.equal(evaluateMotion(t, 0.5).opacity, 0);
    const e = easingOf('ease-out');
    assert.ok(Math.abs(evaluateMotion(t, 0.7).opacity - ease(e, 0.5, 0.2)) < 1e-12);
    assert.equal(evaluateMotion(t, 0.9).opacity, 1);
  });
  it('rise: half the font size below, moving up as it fades in', () => {
    const t = unitTracks({ unit: 'letter', style: 'rise', stagger: 0.1, duration: 0.2, easing: 'linear' }, 0, 40);
    assert.deepEqual([evaluateMotion(t, 0).dy, evaluateMotion(t, 0.1).dy, evaluateMotion(t, 0.2).dy], [20, 10, 0]);
  });
  it('typewriter: nothing before its instant, all of it from then on', () => {
    const t = unitTracks({ unit: 'letter', style: 'typewriter', stagger: 0.25 }, 3, 40);
    assert.equal(evaluateMotion(t, 0.7499).opacity, 0);
    assert.equal(evaluateMotion(t, 0.75).opacity, 1);
    assert.equal(evaluateMotion(t, 5).opacity, 1);
  });
});

describe('rasteriseTextUnits', () => {
  it('the units tile the raster: every pixel in exactly one rectangle, over several lines', async () => {
    const style: TextStyle = {
      font: 'Inter',
      weight: 400,
      fontSize: 32,
      lineHeight: 1.2,
      align: 'center',
      maxWidth: 200,
      color: [255, 255, 255, 255],
      stroke: { width: 4, color: [0, 0, 0, 255] },
    };
    const r = await rasteriseTextUnits('Hello wonderful world', style, 'word');
    assert.ok(r.raster.lines >= 2, `${r.raster.lines} lines`);
    assert.equal(r.units.length, 3);
    const seen = new Uint8Array(r.raster.width * r.raster.height);
    for (const rects of r.units)
      for (const c of rects)
        for (let y = c.y0; y < c.y1; y++) for (let x = c.x0; x < c.x1; x++) seen[y * r.raster.width + x]! += 1;
    assert.ok(
      seen.every((n) => n === 1),
      'each pixel once',
    );
  });
});
