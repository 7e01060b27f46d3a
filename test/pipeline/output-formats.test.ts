/**
 * Output formats through a live API (the harness's serve stack: API, in-process executor, worker
 * processes): a movie posted with `output.format` is stored under its format's extension, and
 * its signed download answers the format's Content-Type and a filename with that extension; with
 * S3, the object itself carries the Content-Type and the presigned URL names the file.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { backends, newAccount } from '../api/helpers.ts';
import { ffprobe, type Stack, startStack, tinyMovie } from './harness.ts';

type Render = {
  id: string;
  status: string;
  outputUrl: string | null;
  error: { code: string; path?: string; message: string } | null;
  durationSec: number | null;
};

async function api(stack: Stack, key: string, method: string, url: string, body?: unknown) {
  const res = await fetch(`${stack.base}${url}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function untilFinished(stack: Stack, key: string, id: string, timeoutMs = 120_000): Promise<Render> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await api(stack, key, 'GET', `/v1/renders/${id}`);
    const r = body as unknown as Render;
    if (r.status === 'done' || r.status === 'failed') return r;
    if (Date.now() > deadline) throw new Error(`render ${id} still ${r.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** A tiny movie (320x180, 15 fps, 1 s) with a spoken word, so the audio formats have sound. */
const movie = (format: string) => ({
  ...tinyMovie({
    elements: [
      { id: 't1', type: 'text', text: 'Hi', fontSize: 40, color: '#ffffff' },
      { id: 'v1', type: 'voice', text: 'Hi' },
    ],
  }),
  output: { format },
});

/** format -> [Content-Type, extension, what ffprobe finds]. */
const FORMATS: [string, string, string, string][] = [
  ['webm', 'video/webm', 'webm', 'vp9'],
  ['mov', 'video/quicktime', 'mov', 'prores'],
  ['gif', 'image/gif', 'gif', 'gif'],
  ['mp3', 'audio/mpeg', 'mp3', 'mp3'],
  ['wav', 'audio/wav', 'wav', 'pcm_s16le'],
];

describe('output formats through the API (local store)', { timeout: 300_000 }, () => {
  it('stores each format under its extension and serves it with its Content-Type and filename', async () => {
    const backend = backends().find((b) => b.name === 'pglite');
    const db = await (backend as NonNullable<typeof backend>).open();
    const stack = await startStack(db);
    try {
      const { key } = await newAccount(db, { plan: 'pro', credits: 300 });
      const created = await Promise.all(
        FORMATS.map(async ([format]) => {
          const res = await api(stack, key, 'POST', '/v1/renders', { movie: movie(format) });
          assert.equal(res.status, 201, JSON.stringify(res.body));
          return res.body.id as string;
        }),
      );
      for (const [i, [format, type, ext, codec]] of FORMATS.entries()) {
        const render = await untilFinished(stack, key, created[i]!);
        assert.equal(render.status, 'done', `${format}: ${JSON.stringify(render.error)}`);
        const res = await fetch(render.outputUrl as string);
        assert.equal(res.status, 200, format);
        assert.equal(res.headers.get('content-type'), type, format);
        assert.equal(res.headers.get('content-disposition'), `inline; filename="${render.id}.${ext}"`, format);
        const file = path.join(stack.dataDir, `download.${ext}`);
        await writeFile(file, Buffer.from(await res.arrayBuffer()));
        const probe = await ffprobe(file);
        assert.equal(probe.streams[0]?.codec_name, codec, `${format}: ${JSON.stringify(probe.streams)}`);
        assert.ok(Math.abs(Number(probe.format.duration) - (render.durationSec as number)) < 0.15, format);
      }
      // A movie without sound cannot be an audio format: refused at output.format when posted.
      const silent = await api(stack, key, 'POST', '/v1/renders', {
        movie: { ...tinyMovie(), output: { format: 'mp3' } },
      });
      assert.equal(silent.status, 400);
      const error = silent.body.error as { code: string; path: string };
      assert.deepEqual([error.code, error.path], ['VALIDATION_ERROR', 'output.format']);
    } finally {
      await stack.close();
      await db.close();
    }
  });
});

describe('output formats through the API (S3)', {
  skip: process.env.TEST_S3_ENDPOINT ? false : 'TEST_S3_ENDPOINT is not set (run through scripts/test.sh)',
  timeout: 180_000,
}, () => {
  it('uploads the output with its Content-Type and presigns a download named with its extension', async () => {
    const backend = backends().find((b) => b.name === 'pglite');
    const db = await (backend as NonNullable<typeof backend>).open();
    const bucket = `fw-formats-${Date.now()}`;
    const { S3Client, CreateBucketCommand, HeadObjectCommand } = await import('@aws-sdk/client-s3');
    const admin = new S3Client({
      region: 'us-east-1',
      endpoint: process.env.TEST_S3_ENDPOINT,
      forcePathStyle: true,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    });
    await admin.send(new CreateBucketCommand({ Bucket: bucket }));
    const stack = await startStack(db, { s3Bucket: bucket });
    try {
      const { key } = await newAccount(db, { plan: 'pro', credits: 100 });
      const created = await api(stack, key, 'POST', '/v1/renders', { movie: movie('webm') });
      const render = await untilFinished(stack, key, created.body.id as string);
      assert.equal(render.status, 'done', JSON.stringify(render.error));
      const head = await admin.send(new HeadObjectCommand({ Bucket: bucket, Key: `renders/${render.id}.webm` }));
      assert.equal(head.ContentType, 'video/webm');
      const hop = await fetch(render.outputUrl as string, { redirect: 'manual' });
      assert.equal(hop.status, 302);
      const location = hop.headers.get('location') ?? '';
      assert.ok(location.startsWith(`${process.env.TEST_S3_ENDPOINT}/${bucket}/renders/${render.id}.webm?`), location);
      const got = await fetch(location);
      assert.equal(got.headers.get('content-type'), 'video/webm');
      assert.match(got.headers.get('content-disposition') ?? '', new RegExp(`filename="${render.id}\\.webm"`));
    } finally {
      await stack.close();
      await db.close();
      admin.destroy();
    }
  });
});
