/**
 * Loudness normalisation in whole renders (the real ffmpeg, espeak and the renderer): the output
 * file's integrated loudness and true peak measured with ffmpeg's ebur128 filter (peak=true), for a
 * voiceover alone (limited: speech's peaks sit far above its loudness), a loud soundtrack under a
 * voice (one gain), a custom target, normalisation off against the mix as prepared, a mix of pure
 * silence, and one process against two segments. Ducking: the music under the voice keeps its
 * ratio, and the voice stays louder than the music while it speaks.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { runMediaTool } from '../../lib/process/ffmpeg-runner.ts';
import { validateMovie } from '../../movie/index.ts';
import { audioEncodeArgs } from '../../worker/encode/ffmpeg-args.ts';
import { runFfmpeg } from '../../worker/encode/ffmpeg-process.ts';
import { prepare } from '../../worker/prepare/prepare.ts';
import type { WorkerConfig } from '../../worker/run/prepare-render.ts';
import { renderMovie } from '../../worker/run/render-movie.ts';
import { pcm, probe } from './media.ts';

const dir = mkdtempSync(join(tmpdir(), 'fw-loudness-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const config: WorkerConfig = { ffmpegPath: 'ffmpeg', allowPrivateUrls: true, env: process.env };
const ff = (args: string[]) => runFfmpeg('ffmpeg', ['-v', 'error', '-y', ...args]);

/** The 10 kHz marker in the soundtrack: its level tells the music's gain at any time. */
const MARKER_HZ = 10_000;

let server: Server;
let base: string;
before(async () => {
  await Promise.all([
    // Loud music: seeded pink noise near full scale, and a quiet 10 kHz marker, 14 s, stereo.
    ff([
      ...['-f', 'lavfi', '-i', 'anoisesrc=color=pink:amplitude=1:seed=3:sample_rate=48000:duration=14'],
      ...['-f', 'lavfi', '-i', `sine=frequency=${MARKER_HZ}:sample_rate=48000:duration=14`],
      ...['-filter_complex', '[1]volume=0.8[m];[0][m]amix=inputs=2:normalize=0,pan=stereo|c0=c0|c1=c0'],
      join(dir, 'music.wav'),
    ]),
    // Digital silence, 4 s.
    ff(['-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=stereo', '-t', '4', join(dir, 'silence.wav')]),
  ]);
  server = createServer((req, res) => {
    const name = (req.url ?? '').slice(1);
    if (!['music.wav', 'silence.wav'].includes(name)) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'audio/wav' }).end(readFileSync(join(dir, name)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server?.close());

const valid = (doc: unknown) => {
  const r = validateMovie(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.findings));
  return r.value;
};

const frame = { schema: 'v1', width: 320, height: 180, fps: 10 };
const voiceDoc = (loudness?: unknown) =>
  valid({
    ...frame,
    ...(loudness === undefined ? {} : { loudness }),
    scenes: [
      {
        id: 'one',
        duration: 'voice',
        elements: [{ id: 'v1', type: 'voice', text: 'Loudness is measured over the whole movie, then set once.' }],
      },
      {
        id: 'two',
        duration: 'voice',
        elements: [{ id: 'v2', type: 'voice', text: 'Every sentence keeps its place and its level.' }],
      },
    ],
  });

/** Music alone for 3 s, then a voice from 3.3 s (the music ducked under it), then music alone. */
const VOICE_AT = 3.3;
const musicDoc = (loudness?: unknown, volume = 1.25) =>
  valid({
    ...frame,
    ...(loudness === undefined ? {} : { loudness }),
    soundtrack: { src: `${base}/music.wav`, volume },
    scenes: [
      { id: 'intro', duration: 3, elements: [{ id: 't1', type: 'text', text: 'Intro', fontSize: 30 }] },
      {
        id: 'talk',
        duration: 'voice',
        elements: [
          {
            id: 'vo',
            type: 'voice',
            text: 'The music steps back while this voice speaks, then it returns.',
            start: 0.3,
          },
        ],
      },
      { id: 'outro', duration: 2, elements: [{ id: 't2', type: 'text', text: 'Outro', fontSize: 30 }] },
    ],
  });

interface R128 {
  integrated: number;
  truePeak: number;
}

/** ffmpeg's ebur128 (peak=true) over a file or an ffmpeg input: its summary's I and true peak. */
async function ebur128(input: string[]): Promise<R128> {
  let log = '';
  await runMediaTool('ffmpeg', ['-hide_banner', '-nostats', ...input, '-af', 'ebur128=peak=true', '-f', 'null', '-'], {
    onStderr: (d) => {
      log += d.toString();
    },
  });
  const summary = log.slice(log.lastIndexOf('Summary:'));
  const read = (re: RegExp) => {
    const v = re.exec(summary)?.[1];
    assert.ok(v, `no ${re} in ${summary}`);
    return v === '-inf' ? Number.NEGATIVE_INFINITY : Number(v);
  };
  return { integrated: read(/ I:\s+(\S+) LUFS/), truePeak: read(/Peak:\s+(\S+) dBFS/) };
}

/** The first channel of a file's audio, s16 at 48 kHz. */
async function left(file: string): Promise<Int16Array> {
  const b = await pcm(file);
  const out = new Int16Array(b.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = b.readInt16LE(i * 4);
  return out;
}

/** Amplitude of frequency `hz` in samples [t0, t1) (Goertzel). */
function toneLevel(s: Int16Array, hz: number, t0: number, t1: number): number {
  const a = Math.round(t0 * 48_000);
  const b = Math.round(t1 * 48_000);
  let re = 0;
  let im = 0;
  for (let i = a; i < b; i++) {
    const w = (2 * Math.PI * hz * i) / 48_000;
    re += s[i]! * Math.cos(w);
    im += s[i]! * Math.sin(w);
  }
  return (2 * Math.hypot(re, im)) / (b - a);
}

/** Mean square of samples [t0, t1). */
function power(s: Int16Array, t0: number, t1: number): number {
  const a = Math.round(t0 * 48_000);
  const b = Math.round(t1 * 48_000);
  let sum = 0;
  for (let i = a; i < b; i++) sum += s[i]! * s[i]!;
  return sum / (b - a);
}

/** Renders `movie`; resolves with the file and what the render logged about its loudness. */
const render = async (name: string, movie: ReturnType<typeof valid>, parallel = 1) => {
  const output = join(dir, `${name}.mp4`);
  const records: { msg: string; loudness?: { mode: string } }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void records.push(JSON.parse(line)) });
  await renderMovie({ movie, output, config, parallel, logger });
  return { output, mode: records.find((r) => r.msg.startsWith('audio loudness:'))?.loudness?.mode };
};

/** Within 1 LU of the target, true peak at most the ceiling (the file itself is checked by encodeMix). */
function assertNormalised(m: R128, target: number, ceiling: number, what: string): void {
  assert.ok(Math.abs(m.integrated - target) <= 1, `${what}: integrated ${m.integrated} LUFS, target ${target}`);
  assert.ok(m.truePeak <= ceiling, `${what}: true peak ${m.truePeak} dBTP, ceiling ${ceiling}`);
}

describe('a voiceover alone, at the default -14 LUFS / -1 dBTP', () => {
  it('is limited to the target, and two segments give the same audio as one process', async () => {
    const one = await render('voice', voiceDoc());
    const two = await render('voice-2', voiceDoc(), 2);
    assert.equal(one.mode, 'limited', 'speech: the gain alone would pass the ceiling');
    assertNormalised(await ebur128(['-i', one.output]), -14, -1, 'voiceover');
    assert.ok((await pcm(one.output)).equals(await pcm(two.output)), 'the same audio, sample for sample');
  });
});

/** The music's gain under the voice (its marker's level there over before), and the voice over it in dB. */
async function ducking(file: string): Promise<{ ratio: number; voiceOverMusicDb: number }> {
  const s = await left(file);
  const ratio = toneLevel(s, MARKER_HZ, VOICE_AT + 0.2, VOICE_AT + 1.7) / toneLevel(s, MARKER_HZ, 0.5, 2.5);
  // The music is steady: under the voice it is its power alone times the ducking seen.
  const music = power(s, 0.5, 2.5) * ratio * ratio;
  const voice = power(s, VOICE_AT + 0.2, VOICE_AT + 1.7) - music;
  return { ratio, voiceOverMusicDb: 10 * Math.log10(voice / music) };
}

describe('a loud soundtrack under a voice: one gain down', () => {
  let normal: Awaited<ReturnType<typeof render>>;
  let off: Awaited<ReturnType<typeof render>>;
  let mixed: R128;
  let plain: string;
  before(async () => {
    normal = await render('music', musicDoc());
    off = await render('music-off', musicDoc(false));
    // The mix as prepare makes it, and its encode as it was before normalisation: what "off" keeps.
    const p = await prepare({
      movie: musicDoc(),
      format: 'mp4',
      tmpDir: mkdtempSync(join(dir, 'prep-')),
      draft: false,
      watermark: false,
      codec: 'libx264',
      fetchPolicy: { allowPrivate: true },
      speech: {},
    });
    const a = p.audio!;
    mixed = await ebur128(['-f', 's16le', '-ar', String(a.sampleRate), '-ac', String(a.channels), '-i', a.file]);
    plain = join(dir, 'plain.m4a');
    await runFfmpeg('ffmpeg', audioEncodeArgs(a, plain));
  });

  it('is loud as mixed: more than 2 LU over the target', () => {
    assert.ok(mixed.integrated > -12, `the mix: ${mixed.integrated} LUFS`);
  });

  it('comes out within 1 LU of -14, true peak under -1 dBTP, by one gain', async () => {
    assert.equal(normal.mode, 'linear');
    assertNormalised(await ebur128(['-i', normal.output]), -14, -1, 'music and voice');
  });

  it('meets a custom target of -20 LUFS with a -3 dBTP ceiling', async () => {
    const custom = await render('music-20', musicDoc({ target: -20, truePeak: -3 }));
    assertNormalised(await ebur128(['-i', custom.output]), -20, -3, 'custom');
  });

  it('off: the mix encoded as it was before normalisation existed, sample for sample', async () => {
    assert.equal(off.mode, undefined, 'nothing logged: not normalised');
    assert.ok((await pcm(off.output)).equals(await pcm(plain)), 'the plain encode of the mix');
    const m = await ebur128(['-i', off.output]);
    // AAC's low-pass takes the top of the pink noise off: a few tenths of a LU, no more.
    assert.ok(
      Math.abs(m.integrated - mixed.integrated) <= 1,
      `off ${m.integrated} against the mix's ${mixed.integrated}`,
    );
    assert.ok(m.integrated - -14 > 1.5, `and so not at the target: ${m.integrated}`);
  });

  it('keeps the ducking and the voice over the music exactly as mixed', async () => {
    const [n, o] = [await ducking(normal.output), await ducking(off.output)];
    assert.ok(Math.abs(n.ratio - 0.25) < 0.05, `ducked to ${n.ratio.toFixed(3)} of the music's level`);
    assert.ok(Math.abs(n.ratio - o.ratio) < 0.01, `as off: ${n.ratio.toFixed(3)} against ${o.ratio.toFixed(3)}`);
    assert.ok(n.voiceOverMusicDb > 0, `voice over music while speaking: ${n.voiceOverMusicDb.toFixed(1)} dB`);
    assert.ok(
      Math.abs(n.voiceOverMusicDb - o.voiceOverMusicDb) < 0.5,
      `the balance as off: ${n.voiceOverMusicDb.toFixed(2)} against ${o.voiceOverMusicDb.toFixed(2)} dB`,
    );
  });
});

describe('a soft soundtrack under a voice: limited up', () => {
  it('meets the target; the music under the voice stays ducked, the voice well over it', async () => {
    const normal = await render('soft', musicDoc(undefined, 0.3));
    const off = await render('soft-off', musicDoc(false, 0.3));
    assert.equal(normal.mode, 'limited');
    assertNormalised(await ebur128(['-i', normal.output]), -14, -1, 'soft music and voice');
    const [n, o] = [await ducking(normal.output), await ducking(off.output)];
    // The limiter turns the voice's peaks down, and the music under them with it: a little more
    // ducking, never less, within the tolerance the mix's own ducking test allows.
    assert.ok(Math.abs(n.ratio - 0.25) < 0.05, `ducked to ${n.ratio.toFixed(3)} of the music's level`);
    assert.ok(
      n.ratio <= o.ratio + 0.005,
      `not less ducked than off: ${n.ratio.toFixed(3)} against ${o.ratio.toFixed(3)}`,
    );
    // Speech over music: 10 dB and more is what the default ducking (-12 dB) is for.
    assert.ok(n.voiceOverMusicDb > 10, `voice over music while speaking: ${n.voiceOverMusicDb.toFixed(1)} dB`);
  });
});

describe('a mix of pure silence', () => {
  it('renders, left silent', async () => {
    const { output, mode } = await render(
      'silence',
      valid({
        ...frame,
        scenes: [{ id: 's', duration: 3, elements: [{ id: 'quiet', type: 'audio', src: `${base}/silence.wav` }] }],
      }),
    );
    assert.equal(mode, 'none');
    const p = await probe(output);
    assert.equal(p.streams.filter((s) => s.codec_type === 'audio').length, 1);
    assert.deepEqual(await ebur128(['-i', output]), { integrated: -70, truePeak: Number.NEGATIVE_INFINITY });
  });
});
