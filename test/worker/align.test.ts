import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { alignWords, type Features, mfcc, warp } from '../../worker/prepare/speech/align.ts';
import { EspeakClient } from '../../worker/prepare/speech/espeak.ts';
import { OPENAI_PCM_RATE } from '../../worker/prepare/speech/openai-tts.ts';
import { espeakSpeech, pausedClip } from './speech-clips.ts';

const dir = mkdtempSync(join(tmpdir(), 'fw-align-test-'));
const espeak = new EspeakClient();
after(() => {
  espeak.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('mfcc', () => {
  it('makes a frame every 10 ms of whole samples, 13 coefficients each, mean removed', () => {
    const rate = 22_050;
    const samples = new Int16Array(rate); // 1 s: silence, then a tone
    for (let i = rate / 2; i < rate; i++) samples[i] = Math.round(10_000 * Math.sin((2 * Math.PI * 440 * i) / rate));
    const f = mfcc({ samples, sampleRate: rate });
    assert.equal(f.dim, 13);
    assert.equal(f.hopSec, 221 / rate, 'the hop is whole samples, not 10 ms rounded away');
    assert.equal(f.count, 1 + Math.floor((rate - 551) / 221));
    for (let c = 0; c < 13; c++) {
      let sum = 0;
      for (let i = 0; i < f.count; i++) sum += f.data[i * 13 + c]!;
      assert.ok(Math.abs(sum / f.count) < 1e-3, `coefficient ${c} has mean ${sum / f.count}`);
    }
    // The energy coefficient separates the silent half from the tone.
    const c0 = (i: number) => f.data[i * 13]!;
    assert.ok(c0(10) < c0(f.count - 10) - 10, `${c0(10)} vs ${c0(f.count - 10)}`);
  });

  it('gives no frames for a clip shorter than one window', () => {
    assert.equal(mfcc({ samples: new Int16Array(100), sampleRate: 24_000 }).count, 0);
  });
});

describe('warp', () => {
  const features = (rows: number[][]): Features => ({
    count: rows.length,
    dim: rows[0]!.length,
    hopSec: 0.01,
    data: Float32Array.from(rows.flat()),
  });

  it('pairs each frame with the first frame of its stretched copy', () => {
    const a = Array.from({ length: 40 }, (_, i) => [Math.sin(i * 1.3) * 5, Math.cos(i * 0.7) * 5, i % 3]);
    // b holds frame 10 for 12 frames and drops frames 30-34.
    const b = [...a.slice(0, 10), ...Array(12).fill(a[10]), ...a.slice(11, 30), ...a.slice(35)];
    const first = warp(features(a), features(b), 50);
    assert.equal(first[9], 9);
    assert.equal(first[10], 10);
    assert.equal(first[11], 22);
    assert.equal(first[29], 40);
    assert.equal(first[35], 41);
    for (let i = 1; i < first.length; i++) assert.ok(first[i]! >= first[i - 1]!, 'the path never goes back');
  });
});

describe('alignWords: espeak guide to a clip of another voice with pauses', () => {
  const parts = [
    'The quick brown fox jumps over the lazy dog near the river bank.',
    'Numbers like 1,250 and dates such as March 3rd are read aloud, too.',
  ];
  let guide: Awaited<ReturnType<typeof espeakSpeech>>;
  let clip: Awaited<ReturnType<typeof pausedClip>>;
  before(async () => {
    guide = await espeakSpeech(espeak, dir, 'en-us', parts.join(' '));
    clip = await pausedClip(espeak, dir, 'en-gb', parts, [0.6, 1.3]);
  });

  it('puts every word within 100 ms of where the clip speaks it', () => {
    const words = alignWords({ samples: guide.pcm, sampleRate: guide.sampleRate }, guide.words, {
      samples: clip.pcm,
      sampleRate: OPENAI_PCM_RATE,
    });
    assert.equal(words.length, clip.starts.length);
    words.forEach((w, i) => {
      assert.ok(Math.abs(w.startSec - clip.starts[i]!) <= 0.1, `${w.text}: ${w.startSec} vs ${clip.starts[i]}`);
      assert.ok(w.endSec >= w.startSec);
      if (i > 0) assert.equal(w.startSec, words[i - 1]!.endSec, 'each word ends where the next starts');
    });
    assert.equal(words.at(-1)!.endSec, clip.pcm.length / OPENAI_PCM_RATE);
  });

  it('is a test an even stretch fails: the pauses move words by more than 300 ms', () => {
    const k = clip.pcm.length / OPENAI_PCM_RATE / (guide.pcm.length / guide.sampleRate);
    const worst = Math.max(...guide.words.map((w, i) => Math.abs(w.startSec * k - clip.starts[i]!)));
    assert.ok(worst > 0.3, `stretching is off by at most ${worst} s`);
  });

  it('keeps the guide words, stretched, when the clip is too short to have features', () => {
    const words = alignWords({ samples: guide.pcm, sampleRate: guide.sampleRate }, guide.words, {
      samples: new Int16Array(100),
      sampleRate: OPENAI_PCM_RATE,
    });
    assert.equal(words.length, guide.words.length);
    assert.ok(words.every((w) => w.endSec <= 100 / OPENAI_PCM_RATE + 1e-9));
  });
});
