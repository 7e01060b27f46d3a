/**
 * The steps of a render spread over pods (worker/run/cluster-steps.ts) run one after another in this
 * process, as the prepare, segment and join pods run them, through a real object store directory:
 * the joined MP4 must be the one-process render of the same movie, frame for frame and sample for
 * sample, with a video clip (the backdrop path), a crossfade, a sound and a soundtrack crossing the
 * segment borders. The cluster test (test/cluster/operator.test.ts) runs them as pods.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { removeWork } from '../../lib/render-work.ts';
import { LocalObjectStore } from '../../lib/storage/local-store.ts';
import { validateMovie } from '../../movie/index.ts';
import { runFfmpeg } from '../../worker/encode/ffmpeg-process.ts';
import { joinStep, prepareStep, segmentStep } from '../../worker/run/cluster-steps.ts';
import type { WorkerConfig } from '../../worker/run/prepare-render.ts';
import { renderMovie } from '../../worker/run/render-movie.ts';
import { frameMd5s, pcm } from './media.ts';

const config: WorkerConfig = { ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe', allowPrivateUrls: true, env: process.env };
let dir: string;
let server: Server;
let base: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fw-steps-'));
  const ff = (args: string[]) => runFfmpeg('ffmpeg', ['-v', 'error', '-y', ...args]);
  await Promise.all([
    // A 160x90 BT.709 clip with its own sound, 12 s at 25 fps: a full-frame backdrop.
    ff([
      ...['-f', 'lavfi', '-i', 'testsrc2=s=160x90:r=25:d=12', '-f', 'lavfi', '-i', 'sine=f=3000:d=12'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-colorspace', 'bt709'],
      ...['-color_primaries', 'bt709', '-color_trc', 'bt709', '-c:a', 'aac', '-shortest', join(dir, 'clip.mp4')],
    ]),
    ff(['-f', 'lavfi', '-i', 'sine=f=1000:d=2', join(dir, 'ding.wav')]),
    ff(['-f', 'lavfi', '-i', 'sine=f=440:d=7', join(dir, 'music.wav')]),
  ]);
  server = createServer((req, res) => {
    const name = (req.url ?? '').slice(1);
    if (!['clip.mp4', 'ding.wav', 'music.wav'].includes(name)) return res.writeHead(404).end();
    const type = name.endsWith('.mp4') ? 'video/mp4' : 'audio/wav';
    res.writeHead(200, { 'content-type': type }).end(readFileSync(join(dir, name)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  server?.close();
  await rm(dir, { recursive: true, force: true });
});

test('prepare, 3 segments and join give the one-process render of a movie with a clip, a crossfade and sound', async () => {
  const checked = validateMovie({
    schema: 'v1',
    width: 160,
    height: 90,
    fps: 10,
    soundtrack: { src: `${base}/music.wav`, volume: 0.5 },
    scenes: [
      {
        id: 'clip',
        duration: 14,
        elements: [
          { id: 'bg', type: 'video', src: `${base}/clip.mp4`, fit: 'cover', loop: true, trimStart: 1 },
          {
            id: 'title',
            type: 'text',
            text: 'Clip',
            fontSize: 14,
            color: '#ffffff',
            start: 8,
            animation: { preset: 'slide-in-left', duration: 3 },
          },
        ],
      },
      {
        id: 'after',
        duration: 13,
        background: '#402060',
        transition: { type: 'crossfade', duration: 2 },
        elements: [
          { id: 'ding', type: 'audio', src: `${base}/ding.wav`, start: 7.5 },
          {
            id: 'end',
            type: 'text',
            text: 'End',
            fontSize: 14,
            color: '#ffffff',
            animation: { preset: 'zoom-in', duration: 2 },
          },
          {
            // Zoomed above 1: its sharper rasters (worker/prepare/zoom-rasters.ts) go to the pods too.
            id: 'grow',
            type: 'text',
            text: 'Grow',
            fontSize: 12,
            color: '#ffe060',
            position: { x: 10, y: 60 },
            animate: {
              scale: [
                { time: 0, value: 1 },
                { time: 6, value: 2.5 },
              ],
            },
          },
        ],
      },
    ],
  });
  assert.ok(checked.ok, JSON.stringify(!checked.ok && checked.findings));
  const movie = checked.value;

  const one = join(dir, 'one.mp4');
  const whole = await renderMovie({ movie, output: one, config });
  assert.equal(whole.totalFrames, 250);
  // The first 10 s chunk has the clip under every frame: ffmpeg composites it, on one pod or three.
  assert.equal(
    whole.segmentStats.reduce((n, s) => n + s.composited, 0),
    100,
    'the first chunk composited by ffmpeg, the crossfade and the last scene drawn',
  );

  const objects = new LocalObjectStore(join(dir, 'store'));
  const ctx = { renderId: 'rnd_steps', objects, config, tmpRoot: dir };
  const plan = await prepareStep({ ...ctx, movie, format: 'mp4', draft: false, watermark: false, maxSegments: 3 });
  assert.deepEqual(plan, { segments: 3, totalFrames: 250, durationSec: 25 });
  // Each segment as its pod runs it; the last one first, as pods finish in any order.
  const frames = [];
  for (const index of [2, 0, 1]) frames[index] = (await segmentStep({ ...ctx, index })).frames;
  assert.deepEqual(frames, [100, 100, 50], 'cut on the 10 s chunks');
  const joined = join(dir, 'joined.mp4');
  assert.deepEqual(await joinStep({ ...ctx, output: joined }), { durationSec: 25 });

  const [a, b] = [await frameMd5s(one), await frameMd5s(joined)];
  assert.equal(b.length, 250);
  const differ = a.flatMap((m, i) => (m === b[i] ? [] : [i]));
  assert.deepEqual(differ, [], `frames that differ: ${differ.slice(0, 10).join(', ')}`);
  const [pa, pb] = [await pcm(one), await pcm(joined)];
  assert.ok(pa.length >= 25 * 48000 * 4 * 0.99, `the whole movie's sound: ${pa.length} bytes`);
  assert.ok(pa.equals(pb), 'the same audio, sample for sample');

  await assert.rejects(segmentStep({ ...ctx, index: 3 }), /Segment 3 is not in the plan \(3 segments\)/);

  // The join's clean-up: everything under work/ goes; a second removal finds nothing.
  const work = join(dir, 'store', 'work', 'rnd_steps');
  // Objects, not the local store's directories or its `.meta` sidecars.
  const objectsIn = () => readdirSync(work, { recursive: true }).filter((f) => !/(^files|\.meta)$/.test(String(f)));
  const stored = objectsIn();
  assert.ok(stored.length >= 7, `manifest, 3 segments, audio, textures, the clip: ${stored.join(', ')}`);
  assert.equal(await removeWork(objects, 'rnd_steps'), stored.length);
  assert.deepEqual(objectsIn(), []);
  assert.equal(await removeWork(objects, 'rnd_steps'), 0);
});

test('a step without a prepared plan fails, saying so', async () => {
  const objects = new LocalObjectStore(join(dir, 'store-bad'));
  const ctx = { renderId: 'rnd_bad', objects, config, tmpRoot: dir };
  await assert.rejects(segmentStep({ ...ctx, index: 0 }), /prepared plan \(manifest.json\) is missing/);
});
