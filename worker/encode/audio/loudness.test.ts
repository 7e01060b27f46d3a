/**
 * The loudness passes on PCM made here, with the real ffmpeg: the measurement against BS.1770's
 * own calibration, silence, the gain search, the limiter's timing, and encodes measured back.
 * Whole renders (voice, soundtrack, ducking, one pod against segments) are in
 * test/worker/loudness.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AppError } from '../../../lib/errors.ts';
import { runMediaTool } from '../../../lib/process/ffmpeg-runner.ts';
import { DEFAULT_LOUDNESS } from '../../../movie/index.ts';
import { runFfmpeg } from '../ffmpeg-process.ts';
import {
  encodeMix,
  limitedFilters,
  loudnessTarget,
  type Measured,
  measureLoudness,
  parseEbur128Summary,
  planNormalisation,
  searchGain,
} from './loudness.ts';

const dir = mkdtempSync(join(tmpdir(), 'fw-loudness-unit-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const RATE = 48_000;

/** Writes s16 PCM from a function of time (seconds) per channel; values in -1..1. */
function pcmFile(name: string, seconds: number, channels: 1 | 2, f: (t: number, c: number) => number) {
  const n = Math.round(seconds * RATE);
  const pcm = new Int16Array(n * channels);
  for (let i = 0; i < n; i++)
    for (let c = 0; c < channels; c++) pcm[i * channels + c] = Math.round(32767 * f(i / RATE, c));
  const file = join(dir, name);
  writeFileSync(file, Buffer.from(pcm.buffer));
  return { file, sampleRate: RATE, channels };
}

/** ffmpeg's ebur128 on any file, read with this test's own pattern (not the module's parser). */
async function ebur128(file: string): Promise<Measured> {
  let log = '';
  await runMediaTool(
    'ffmpeg',
    ['-hide_banner', '-nostats', '-i', file, '-af', 'ebur128=peak=true', '-f', 'null', '-'],
    {
      onStderr: (d) => {
        log += d.toString();
      },
    },
  );
  const tail = log.slice(log.lastIndexOf('Summary:'));
  const n = (re: RegExp) => {
    const v = re.exec(tail)![1]!;
    return v === '-inf' ? Number.NEGATIVE_INFINITY : Number(v);
  };
  return { integrated: n(/ I:\s+(\S+) LUFS/), truePeak: n(/Peak:\s+(\S+) dBFS/) };
}

/** Decoded samples of the first channel, as floats. */
async function decoded(file: string): Promise<Float32Array> {
  const out = await runFfmpeg('ffmpeg', ['-v', 'error', '-i', file, '-af', 'pan=mono|c0=c0', '-f', 'f32le', '-']);
  return new Float32Array(out.buffer, out.byteOffset, out.length >> 2);
}

/** Speech-like: 150 ms bursts of a 220 Hz buzz with harmonics, peaky, with pauses (crest ~17 dB). */
const buzz = (t: number) => {
  const on = t % 0.4 < 0.15 ? 1 : 0;
  let s = 0;
  for (let h = 1; h <= 12; h++) s += Math.sin(2 * Math.PI * 220 * h * t) / h;
  return on * 0.3 * s * Math.exp(-((t % 0.4) * 20));
};

describe('loudnessTarget: the movie setting with its defaults', () => {
  it('is on at -14 LUFS / -1 dBTP by default, takes either field, and is off with false', () => {
    assert.deepEqual(DEFAULT_LOUDNESS, { target: -14, truePeak: -1 });
    assert.deepEqual(loudnessTarget({}), { target: -14, truePeak: -1 });
    assert.deepEqual(loudnessTarget({ loudness: true }), { target: -14, truePeak: -1 });
    assert.deepEqual(loudnessTarget({ loudness: { target: -20 } }), { target: -20, truePeak: -1 });
    assert.deepEqual(loudnessTarget({ loudness: { truePeak: -2 } }), { target: -14, truePeak: -2 });
    assert.equal(loudnessTarget({ loudness: false }), undefined);
  });
});

describe('measuring: ffmpeg ebur128', () => {
  it("reads BS.1770's calibration: a 997 Hz sine at -20 dBFS in one channel is -23.0 LUFS, -20.0 dBTP", async () => {
    // BS.1770-4: a 0 dB FS 997 Hz sine in one channel reads -3.01 LKFS; 20 dB lower, -23.01.
    const tone = pcmFile('cal.pcm', 5, 1, (t) => 0.1 * Math.sin(2 * Math.PI * 997 * t));
    const m = await measureLoudness('ffmpeg', ['-f', 's16le', '-ar', '48000', '-ac', '1', '-i', tone.file]);
    assert.deepEqual(m, { integrated: -23, truePeak: -20 });
  });

  it('reads silence as -70 LUFS (nothing passes the gate) and -inf dBTP', async () => {
    const silence = pcmFile('silence.pcm', 2, 2, () => 0);
    const m = await measureLoudness('ffmpeg', ['-f', 's16le', '-ar', '48000', '-ac', '2', '-i', silence.file]);
    assert.deepEqual(m, { integrated: -70, truePeak: Number.NEGATIVE_INFINITY });
  });

  it('fails loudly on a log without a summary', () => {
    assert.throws(
      () => parseEbur128Summary('[aac @ 0x1] Qavg: 1'),
      (e: unknown) => e instanceof AppError && e.code === 'RENDER_FAILED' && /printed no summary/.test(e.message),
    );
  });
});

describe('searchGain: the gain of a limited mix', () => {
  // A model of limiting: loudness rises 1:1 up to -18 LUFS, then ever more slowly.
  const model = (g: number): Measured => {
    const linear = -24 + g;
    return { integrated: linear < -18 ? linear : -18 + 6 * (1 - Math.exp(-(linear + 18) / 6)), truePeak: -1 };
  };

  it('gets within 0.2 LU of the target in at most four measurements', async () => {
    const seen: number[] = [];
    const r = await searchGain(
      async (g) => {
        seen.push(g);
        return model(g);
      },
      10,
      -14,
    );
    assert.ok(Math.abs(r.result.integrated - -14) <= 0.2, `reached ${r.result.integrated}`);
    assert.equal(r.passes, seen.length);
    assert.ok(r.passes <= 4, `${r.passes} passes`);
    assert.equal(seen[0], 10, 'starts from the linear gain');
    assert.deepEqual(r.result, model(r.gainDb));
  });

  it('stops on a mix that cannot get louder, keeping the closest, the gain bounded', async () => {
    const seen: number[] = [];
    const r = await searchGain(
      async (g) => {
        seen.push(g);
        return { integrated: Math.min(-20, -30 + g), truePeak: -1 };
      },
      16,
      -14,
    );
    assert.ok(r.passes <= 4, `${r.passes} passes`);
    assert.equal(r.passes, seen.length);
    assert.equal(r.result.integrated, -20);
    assert.ok(Math.max(...seen) <= 16 + 24, `never more than 24 dB over the linear gain: ${seen.join(', ')}`);
  });
});

describe('encodeMix: measured, normalised, encoded once', () => {
  it('raises a quiet tone by one gain: within 1 LU of -14 and its waveform only scaled', async () => {
    const quiet = pcmFile('quiet.pcm', 6, 1, (t) => 0.02 * Math.sin(2 * Math.PI * 440 * t));
    const out = join(dir, 'quiet.m4a');
    const done = await encodeMix('ffmpeg', quiet, out, { target: -14, truePeak: -1 });
    assert.equal(done?.mode, 'linear');
    assert.equal(done.passes, 1, 'one measuring pass');
    const m = await ebur128(out);
    assert.ok(Math.abs(m.integrated - -14) <= 1, `integrated ${m.integrated}`);
    assert.ok(m.truePeak <= -1, `true peak ${m.truePeak}`);
    // Only a gain: the decoded waveform is the source's times 10^(gain/20), sample for sample
    // (in the middle of the file, away from the encoder's edges), to within 2% of its peak (AAC).
    const a = await decoded(out);
    const peak = 0.02 * 10 ** (done.gainDb / 20);
    let worst = 0;
    for (let i = RATE; i < RATE * 5; i++)
      worst = Math.max(worst, Math.abs(a[i]! - peak * Math.sin((2 * Math.PI * 440 * i) / RATE)));
    assert.ok(worst < 0.02 * peak, `largest difference ${worst} against a peak of ${peak}`);
  });

  it('limits a peaky mix that the gain alone would push over the ceiling: target met, true peak held', async () => {
    const peaky = pcmFile('peaky.pcm', 8, 1, buzz);
    const before = await measureLoudness('ffmpeg', ['-f', 's16le', '-ar', '48000', '-ac', '1', '-i', peaky.file]);
    assert.ok(before.truePeak - before.integrated > 14, `crest ${before.truePeak - before.integrated} dB`);
    const out = join(dir, 'peaky.m4a');
    const done = await encodeMix('ffmpeg', peaky, out, { target: -14, truePeak: -1 });
    assert.equal(done?.mode, 'limited');
    const m = await ebur128(out);
    assert.ok(Math.abs(m.integrated - -14) <= 1, `integrated ${m.integrated}`);
    assert.ok(m.truePeak <= -1, `true peak ${m.truePeak}`);
    assert.deepEqual(m, done.encoded, 'what encodeMix measured is what the file measures');
  });

  it('lowers a loud stereo mix by one gain, and meets a custom -20 target', async () => {
    const loud = pcmFile(
      'loud.pcm',
      6,
      2,
      (t, c) => 0.7 * Math.sin(2 * Math.PI * (c ? 330 : 220) * t) + 0.25 * Math.sin(2 * Math.PI * 55 * t),
    );
    const before = await measureLoudness('ffmpeg', ['-f', 's16le', '-ar', '48000', '-ac', '2', '-i', loud.file]);
    assert.ok(before.integrated > -8, `loud: ${before.integrated}`);
    for (const target of [-14, -20]) {
      const out = join(dir, `loud${target}.m4a`);
      const done = await encodeMix('ffmpeg', loud, out, { target, truePeak: -1 });
      assert.equal(done?.mode, 'linear');
      const m = await ebur128(out);
      assert.ok(Math.abs(m.integrated - target) <= 1, `${target}: integrated ${m.integrated}`);
      assert.ok(m.truePeak <= -1, `${target}: true peak ${m.truePeak}`);
    }
  });

  it('leaves silence and a mix shorter than one 400 ms block as they are, without failing', async () => {
    for (const [name, sec] of [
      ['silence', 3],
      ['blip', 0.2],
    ] as const) {
      const audio = pcmFile(`${name}.pcm`, sec, 2, (t) =>
        name === 'blip' ? 0.5 * Math.sin(2 * Math.PI * 440 * t) : 0,
      );
      const plan = await planNormalisation('ffmpeg', audio, { target: -14, truePeak: -1 });
      assert.equal(plan.mode, 'none', name);
      assert.deepEqual(plan.filters, []);
      const out = join(dir, `${name}.m4a`);
      await encodeMix('ffmpeg', audio, out, { target: -14, truePeak: -1 });
      const a = await decoded(out);
      assert.ok(a.length > 0, `${name} encoded`);
    }
  });

  it('off: the plain encode, the level as mixed', async () => {
    const quiet = pcmFile('off.pcm', 4, 1, (t) => 0.02 * Math.sin(2 * Math.PI * 440 * t));
    const out = join(dir, 'off.m4a');
    assert.equal(await encodeMix('ffmpeg', quiet, out, undefined), undefined);
    const mixed = await measureLoudness('ffmpeg', ['-f', 's16le', '-ar', '48000', '-ac', '1', '-i', quiet.file]);
    const m = await ebur128(out);
    assert.ok(
      Math.abs(m.integrated - mixed.integrated) <= 0.1,
      `${m.integrated} against the mix's ${mixed.integrated}`,
    );
  });
});

describe('the limiter keeps time', () => {
  it('puts every sample where it was: no look-ahead delay, the same length', async () => {
    // Clicks at known samples, far over the ceiling once gained.
    const at = [24_000, 72_000, 120_000];
    const clicks = pcmFile('clicks.pcm', 3, 1, (t) => {
      const i = Math.round(t * RATE);
      return at.some((a) => i >= a && i < a + 48) ? 0.9 * (Math.floor((i % 48) / 12) % 2 ? 1 : -1) : 0;
    });
    const out = join(dir, 'clicks.f32');
    await runFfmpeg('ffmpeg', [
      ...['-v', 'error', '-f', 's16le', '-ar', '48000', '-ac', '1', '-i', clicks.file],
      ...['-af', limitedFilters(6, -6, RATE).join(','), '-f', 'f32le', out],
    ]);
    const y = new Float32Array(readFileSync(out).buffer.slice(0));
    assert.equal(y.length, 3 * RATE);
    for (const a of at) {
      let first = -1;
      for (let i = a - 2000; i < a + 2000; i++) {
        if (Math.abs(y[i]!) > 0.05) {
          first = i;
          break;
        }
      }
      assert.ok(Math.abs(first - a) <= 4, `click at ${a} found at ${first}`);
    }
    let peak = 0;
    for (const v of y) peak = Math.max(peak, Math.abs(v));
    assert.ok(peak <= 10 ** (-6 / 20) * 1.02, `held at the limit: ${peak}`);
  });
});
