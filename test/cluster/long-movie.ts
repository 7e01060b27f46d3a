import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { posterFiles } from '../../lib/render-images.ts';
import { validateMovie } from '../../movie/index.ts';
import { renderMovie } from '../../worker/run/render-movie.ts';
import { frameMd5s, pcm } from '../worker/media.ts';

/**
 * 100 s at 160x90 and 10 fps: 10 encoder chunks of 10 s, cut into 4 segments at 20, 50 and 70 s.
 * Each border is crossed by a voice with its subtitles; the second by a crossfade as well.
 */
export async function longMovie(extra: Record<string, unknown>[] = []) {
  const voice = (id: string, start: number, text: string) => [
    { id, type: 'voice', text, voiceId: 'espeak-en-us', start },
    {
      id: `${id}-subs`,
      type: 'subtitles',
      fontSize: 12,
      color: '#ffffff',
      highlightColor: '#ffd000',
      wordsPerLine: 3,
    },
  ];
  const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#ff8000' } })
    .png()
    .toBuffer();
  return {
    schema: 'v1',
    width: 160,
    height: 90,
    fps: 10,
    scenes: [
      {
        id: 'one',
        duration: 30,
        background: '#203040',
        elements: [
          {
            id: 'title',
            type: 'text',
            text: 'One',
            fontSize: 16,
            color: '#ffffff',
            animation: { preset: 'zoom-in', duration: 3 },
          },
          ...voice('v1', 17, 'This sentence is spoken across the first border between two segments of the movie.'),
        ],
      },
      {
        id: 'two',
        duration: 35,
        background: '#604020',
        transition: { type: 'crossfade', duration: 1 },
        elements: voice('v2', 19, 'And this one crosses the second border, a little after the crossfade ends.'),
      },
      {
        id: 'three',
        duration: 36,
        background: '#103010',
        elements: [
          { id: 'img', type: 'image', src: `data:image/png;base64,${png.toString('base64')}`, width: 20, height: 20 },
          ...voice('v3', 4.5, 'The third voice is heard over the last border, where the final segment starts.'),
          ...extra,
        ],
      },
    ],
  };
}

/** An object of the test bucket, as bytes. */
async function objectBytes(s3: S3Client, bucket: string, key: string): Promise<Buffer> {
  const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await (object.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray());
}

/**
 * The long movie's render as the cluster stored it (MP4, poster, thumbnail) against the same
 * resolved document (GET /v1/renders/{id}/movie) rendered by one process on this machine: the
 * same 1,000 frames, the same decoded samples, the same poster and thumbnail.
 */
export async function assertSameAsOneMachine(c: {
  s3: S3Client;
  bucket: string;
  id: string;
  apiBase: string;
  key: string;
}): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fw-segments-'));
  try {
    const out = path.join(dir, 'cluster.mp4');
    await writeFile(out, await objectBytes(c.s3, c.bucket, `renders/${c.id}.mp4`));
    const resolved = await fetch(`${c.apiBase}/v1/renders/${c.id}/movie`, {
      headers: { authorization: `Bearer ${c.key}` },
    });
    assert.equal(resolved.status, 200);
    const checked = validateMovie(await resolved.json());
    assert.ok(checked.ok);
    const one = path.join(dir, 'one.mp4');
    await renderMovie({
      movie: checked.value,
      output: one,
      config: { ffmpegPath: 'ffmpeg', allowPrivateUrls: true, env: process.env },
      posterFiles: posterFiles(one),
    });
    // The join pod stored the poster and thumbnail of the joined file: those of the one-machine render.
    for (const [key, file] of [
      [`posters/${c.id}.jpg`, posterFiles(one).poster],
      [`thumbnails/${c.id}.webp`, posterFiles(one).thumbnail],
    ] as const) {
      assert.ok(
        (await objectBytes(c.s3, c.bucket, key)).equals(await readFile(file)),
        `${key} is the one-machine render's`,
      );
    }
    const [a, b] = [await frameMd5s(one), await frameMd5s(out)];
    assert.equal(b.length, 1000);
    assert.equal(a.length, b.length);
    const differ = a.flatMap((m, i) => (m === b[i] ? [] : [i]));
    assert.deepEqual(differ, [], `frames that differ from the one-machine render: ${differ.slice(0, 10).join(', ')}`);
    const [pa, pb] = [await pcm(one), await pcm(out)];
    assert.ok(pa.length > 100 * 48000 * 2 * 0.99, `audio of the whole movie: ${pa.length} bytes`);
    assert.ok(pa.equals(pb), "the decoded audio is the one-machine render's, sample for sample");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
