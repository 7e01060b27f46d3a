import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret } from '../../lib/webhooks/signature.ts';
import { ensureWebhookSecret } from '../../store/lifecycle/webhook-outbox-repo.ts';
import { backends, newAccount } from '../api/helpers.ts';
import { parseExposition } from '../metrics/exposition.ts';
import { ffprobe, freePort, type Stack, startStack, tinyMovie } from './harness.ts';

const hello = JSON.parse(readFileSync(new URL('../../examples/hello.json', import.meta.url), 'utf8'));

type Render = {
  id: string;
  status: string;
  progress: number;
  outputUrl: string | null;
  expiresAt: string | null;
  error: { code: string; path?: string; message: string } | null;
  durationSec: number | null;
  meteredMinutes: number | null;
};

/** The RGB of the pixel at (160, 90) half a second into an MP4 (the centre of tinyMovie's frame). */
async function centrePixel(file: string): Promise<[number, number, number]> {
  const { run } = await import('./harness.ts');
  const { stdout } = await run(
    'ffmpeg',
    [
      '-v',
      'error',
      '-ss',
      '0.5',
      '-i',
      file,
      '-frames:v',
      '1',
      '-vf',
      'crop=2:2:160:90',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-',
    ],
    { encoding: 'buffer' },
  );
  const [r, g, b] = stdout as unknown as Buffer;
  return [r as number, g as number, b as number];
}

async function api(stack: Stack, key: string, method: string, url: string, body?: unknown) {
  const res = await fetch(`${stack.base}${url}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Polls until the render ends, recording every status and progress seen. */
async function untilFinished(stack: Stack, key: string, id: string, timeoutMs = 90_000) {
  const seen: { status: string; progress: number }[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await api(stack, key, 'GET', `/v1/renders/${id}`);
    const r = body as unknown as Render;
    seen.push({ status: r.status, progress: r.progress });
    if (r.status === 'done' || r.status === 'failed') return { render: r, seen };
    if (Date.now() > deadline) throw new Error(`render ${id} still ${r.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

const ORDER = ['queued', 'preparing', 'rendering', 'done', 'failed'];
function assertMonotonic(seen: { status: string; progress: number }[]) {
  for (let i = 1; i < seen.length; i++) {
    const [a, b] = [seen[i - 1]!, seen[i]!];
    assert.ok(b.progress >= a.progress, `progress went back: ${JSON.stringify(seen)}`);
    assert.ok(ORDER.indexOf(b.status) >= ORDER.indexOf(a.status), `status went back: ${JSON.stringify(seen)}`);
  }
}

describe('pipeline with S3 object storage', {
  skip: process.env.TEST_S3_ENDPOINT ? false : 'TEST_S3_ENDPOINT is not set (run through scripts/test.sh)',
  timeout: 120_000,
}, () => {
  it('stores the output in the bucket and redirects its download to a presigned URL', async () => {
    const backend = backends().find((b) => b.name === 'pglite');
    const db = await (backend as NonNullable<typeof backend>).open();
    const bucket = `fw-e2e-${Date.now()}`;
    const { S3Client, CreateBucketCommand } = await import('@aws-sdk/client-s3');
    const admin = new S3Client({
      region: 'us-east-1',
      endpoint: process.env.TEST_S3_ENDPOINT,
      forcePathStyle: true,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    });
    await admin.send(new CreateBucketCommand({ Bucket: bucket }));
    const stack = await startStack(db, { s3Bucket: bucket });
    try {
      assert.equal(stack.pipeline.objects.kind, 's3');
      const { key } = await newAccount(db, { plan: 'pro', credits: 100 });
      const created = await api(stack, key, 'POST', '/v1/renders', { movie: tinyMovie() });
      const { render } = await untilFinished(stack, key, created.body.id as string);
      assert.equal(render.status, 'done', JSON.stringify(render.error));
      const hop = await fetch(render.outputUrl as string, { redirect: 'manual' });
      assert.equal(hop.status, 302);
      const location = hop.headers.get('location') ?? '';
      assert.ok(location.startsWith(`${process.env.TEST_S3_ENDPOINT}/${bucket}/renders/${render.id}.mp4?`), location);
      assert.match(location, /X-Amz-Expires=300/);
      const file = path.join(stack.dataDir, 's3.mp4');
      await writeFile(file, Buffer.from(await (await fetch(location)).arrayBuffer()));
      const probe = await ffprobe(file);
      assert.deepEqual(
        probe.streams.map((st) => [st.codec_type, st.width, st.height]),
        [['video', 320, 180]],
      );
    } finally {
      await stack.close();
      await db.close();
      admin.destroy();
    }
  });
});

describe('GET /v1/voices', () => {
  it('lists the catalogue, espeak and OpenAI voices, to an authenticated caller', async () => {
    const backend = backends().find((b) => b.name === 'pglite');
    const db = await (backend as NonNullable<typeof backend>).open();
    const stack = await startStack(db);
    try {
      const { key } = await newAccount(db);
      const { status, body } = await api(stack, key, 'GET', '/v1/voices');
      assert.equal(status, 200);
      const items = body.items as { id: string; engine: string; language: string }[];
      assert.ok(items.some((v) => v.id === 'espeak-en-us' && v.engine === 'espeak' && v.language === 'en-US'));
      assert.ok(items.some((v) => v.id === 'openai-alloy' && v.engine === 'openai'));
      assert.equal(new Set(items.map((v) => v.id)).size, items.length, 'ids are unique');
      const anonymous = await fetch(`${stack.base}/v1/voices`);
      assert.equal(anonymous.status, 401);
    } finally {
      await stack.close();
      await db.close();
    }
  });
});

for (const backend of backends()) {
  describe(`pipeline end to end on ${backend.name}`, { timeout: 300_000 }, () => {
    it('renders a posted movie to a downloadable MP4 and charges for it', async () => {
      const db = await backend.open();
      const stack = await startStack(db);
      try {
        const { key } = await newAccount(db, { plan: 'pro', credits: 300 });
        const created = await api(stack, key, 'POST', '/v1/renders', { movie: hello });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        const { render, seen } = await untilFinished(stack, key, created.body.id as string);
        assert.equal(render.status, 'done', JSON.stringify(render.error));
        assertMonotonic(seen);
        assert.equal(render.progress, 100);
        assert.ok(render.durationSec && render.durationSec > 1);
        assert.ok(render.meteredMinutes && render.meteredMinutes > 0);
        assert.ok(render.expiresAt);
        const days = (Date.parse(render.expiresAt) - Date.now()) / 86_400_000;
        assert.ok(days > 89.9 && days <= 90, `pro retention is 90 days, got ${days}`);

        const download = await fetch(render.outputUrl as string);
        assert.equal(download.status, 200);
        assert.equal(download.headers.get('content-type'), 'video/mp4');
        const file = path.join(stack.dataDir, 'download.mp4');
        await writeFile(file, Buffer.from(await download.arrayBuffer()));
        const probe = await ffprobe(file);
        const video = probe.streams.find((s) => s.codec_type === 'video');
        assert.equal(video?.codec_name, 'h264');
        assert.equal(video?.pix_fmt, 'yuv420p');
        assert.deepEqual([video?.width, video?.height], [854, 480]);
        assert.ok(probe.streams.some((s) => s.codec_type === 'audio' && s.codec_name === 'aac'));
        assert.ok(Math.abs(Number(probe.format.duration) - (render.durationSec as number)) < 0.1);

        const partial = await fetch(render.outputUrl as string, { headers: { range: 'bytes=0-99' } });
        assert.equal(partial.status, 206);
        assert.equal((await partial.arrayBuffer()).byteLength, 100);
        // One character of the signature changed (to a different one: the first may already be 'A').
        const forged = await fetch(
          (render.outputUrl as string).replace(/sig=(.)/, (_, c) => `sig=${c === 'A' ? 'B' : 'A'}`),
        );
        assert.equal(forged.status, 404);

        const usage = await api(stack, key, 'GET', '/v1/usage');
        const credits = usage.body.credits as { balance: number; reserved: number };
        assert.equal(credits.reserved, 0);
        assert.equal(300 - credits.balance, Math.ceil((render.meteredMinutes as number) * 10 - 1e-9));

        // Which GL drew it, as the worker told the executor: Mesa's llvmpipe through ANGLE on EGL.
        const drawing = parseExposition(await stack.metrics.registry.metrics()).find(
          'framewright_drawing_renderer_info',
        );
        assert.equal(drawing.length, 1, JSON.stringify(drawing));
        assert.equal(drawing[0]?.labels.software, 'true');
        assert.match(drawing[0]?.labels.renderer ?? '', /^ANGLE \(.*llvmpipe/);
      } finally {
        await stack.close();
        await db.close();
      }
    });

    it('fails a render with an unreachable image: ASSET_UNREACHABLE at the element, nothing charged', async () => {
      const db = await backend.open();
      const stack = await startStack(db);
      try {
        const { key } = await newAccount(db, { plan: 'pro', credits: 100 });
        const port = await freePort();
        const movie = tinyMovie({
          elements: [{ id: 'img', type: 'image', src: `http://127.0.0.1:${port}/missing.png`, width: 64, height: 64 }],
        });
        const created = await api(stack, key, 'POST', '/v1/renders', { movie });
        assert.equal(created.status, 201);
        const { render } = await untilFinished(stack, key, created.body.id as string);
        assert.equal(render.status, 'failed');
        assert.equal(render.error?.code, 'ASSET_UNREACHABLE');
        assert.equal(render.error?.path, 'scenes[0].elements[0].src');
        assert.equal(render.outputUrl, null);
        const usage = await api(stack, key, 'GET', '/v1/usage');
        assert.deepEqual(usage.body.credits, { balance: 100, reserved: 0, available: 100 });
      } finally {
        await stack.close();
        await db.close();
      }
    });

    it('delivers signed webhooks once per success, retrying after two 500s', async () => {
      const db = await backend.open();
      const stack = await startStack(db);
      const received: { headers: IncomingMessage['headers']; body: string }[] = [];
      const answers = [500, 500, 204];
      const receiver: Server = createServer((req, res) => {
        let body = '';
        req.on('data', (c) => {
          body += c;
        });
        req.on('end', () => {
          received.push({ headers: req.headers, body });
          res.writeHead(answers.shift() ?? 204).end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
      try {
        const { key, accountId } = await newAccount(db, { plan: 'pro', credits: 100 });
        const secret = await ensureWebhookSecret(db.sql, accountId, newWebhookSecret);
        const ok = await api(stack, key, 'POST', '/v1/renders', { movie: tinyMovie(), webhook_url: hook });
        const { render } = await untilFinished(stack, key, ok.body.id as string);
        assert.equal(render.status, 'done');

        // Private receivers are refused unless ALLOW_PRIVATE_URLS=true; the harness sets it.
        for (let i = 0; i < 5; i++) {
          const before = Date.now();
          await stack.pipeline.dispatcher.deliverDue();
          const [row] = await db.sql<{ nextAttemptAt: Date; deliveredAt: Date | null }[]>`
            SELECT next_attempt_at, delivered_at FROM webhook_outbox WHERE render_id = ${render.id}`;
          if (row && !row.deliveredAt) {
            // A failed attempt is retried later, with backoff; the test lets the wait elapse.
            assert.ok(row.nextAttemptAt.getTime() - before >= 20_000, 'retry is scheduled with backoff');
            await db.sql`UPDATE webhook_outbox SET next_attempt_at = now() - interval '1 second'`;
          }
        }
        assert.equal(received.length, 3, 'two failures, one success, then nothing more');
        const verifier = new Webhook(secret);
        const bodies = received.map((r) => {
          const payload = verifier.verify(r.body, r.headers as Record<string, string>) as Record<string, unknown>;
          return payload;
        });
        assert.deepEqual(new Set(received.map((r) => r.headers['webhook-id'])).size, 1, 'one message id');
        assert.deepEqual(new Set(received.map((r) => r.body)).size, 1, 'every retry carries the same body');
        const event = bodies[0] as { id: string; type: string; data: Render };
        assert.equal(event.type, 'render.completed');
        assert.equal(event.data.id, render.id);
        assert.equal(event.data.status, 'done');
        assert.equal(event.data.outputUrl, render.outputUrl);
      } finally {
        receiver.close();
        await stack.close();
        await db.close();
      }
    });

    it('answers 410 for an expired output and deletes its object', async () => {
      const db = await backend.open();
      const stack = await startStack(db);
      try {
        const { key } = await newAccount(db, { plan: 'trial', credits: 300 });
        const created = await api(stack, key, 'POST', '/v1/renders', { movie: tinyMovie() });
        const { render } = await untilFinished(stack, key, created.body.id as string);
        assert.equal(render.status, 'done');
        assert.equal((await fetch(render.outputUrl as string)).status, 200);
        const objectKey = `renders/${render.id}.mp4`;
        assert.ok(await stack.pipeline.objects.head(objectKey));

        stack.clock.advance(31 * 86_400_000);
        const { sweepExpiredOutputs } = await import('../../api/execution/output-sweeper.ts');
        const swept = await sweepExpiredOutputs({
          db,
          objects: stack.pipeline.objects,
          logger: stack.app.log as never,
          now: stack.clock.now,
        });
        assert.equal(swept, 1);
        assert.equal(await stack.pipeline.objects.head(objectKey), null);
        const gone = await fetch(render.outputUrl as string);
        assert.equal(gone.status, 410);
        assert.equal(((await gone.json()) as { error: { code: string } }).error.code, 'OUTPUT_EXPIRED');
      } finally {
        await stack.close();
        await db.close();
      }
    });

    it('uploads a video clip and a sound, and renders a movie that plays them, with private URLs refused', async () => {
      const db = await backend.open();
      const stack = await startStack(db, { allowPrivate: false });
      try {
        const { key } = await newAccount(db, { plan: 'pro', credits: 100 });
        const { run } = await import('./harness.ts');
        const dir = await import('node:fs/promises').then((fs) => fs.mkdtemp(path.join(tmpdir(), 'fw-e2e-media-')));
        const clipFile = path.join(dir, 'green.mp4');
        const soundFile = path.join(dir, 'beep.wav');
        await run('ffmpeg', [
          ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x00ff00:s=64x64:r=25', '-t', '2'],
          ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', clipFile],
        ]);
        await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=1000', '-t', '1', soundFile]);
        const upload = async (file: string, name: string) => {
          const res = await fetch(`${stack.base}/v1/assets?name=${name}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/octet-stream' },
            body: readFileSync(file),
          });
          assert.equal(res.status, 201);
          return (await res.json()) as { url: string; kind: string; contentType: string };
        };
        const clip = await upload(clipFile, 'green.mp4');
        const sound = await upload(soundFile, 'beep.wav');
        assert.deepEqual([clip.kind, clip.contentType], ['video', 'video/mp4']);
        assert.deepEqual([sound.kind, sound.contentType], ['audio', 'audio/wav']);

        const movie = {
          ...tinyMovie(),
          scenes: [
            {
              id: 'clip',
              duration: 'video',
              background: '#204080',
              elements: [
                { id: 'v', type: 'video', src: clip.url, width: 180, height: 180, fit: 'fill', trimDuration: 1.5 },
                { id: 'a', type: 'audio', src: sound.url, start: 0.2 },
              ],
            },
          ],
        };
        const created = await api(stack, key, 'POST', '/v1/renders', { movie });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        const { render } = await untilFinished(stack, key, created.body.id as string);
        assert.equal(render.status, 'done', JSON.stringify(render.error));
        // A "video" scene lasts as long as its trimmed clip: 1.5 s at 15 fps is 22.5 frames, so 23.
        assert.equal(render.durationSec, 23 / 15);
        const file = path.join(dir, 'out.mp4');
        await writeFile(file, Buffer.from(await (await fetch(render.outputUrl as string)).arrayBuffer()));
        const probe = await ffprobe(file);
        assert.deepEqual(probe.streams.map((x) => x.codec_type).sort(), ['audio', 'video']);
        const [r, g, b] = await centrePixel(file);
        assert.ok(g > 200 && r < 60 && b < 60, `centre pixel is the clip's green: ${r},${g},${b}`);
      } finally {
        await stack.close();
        await db.close();
      }
    });

    it('uploads an asset and renders a movie that uses its url, with private URLs refused', async () => {
      const db = await backend.open();
      // The API listens on loopback: its own asset links must still reach the worker.
      const stack = await startStack(db, { allowPrivate: false });
      try {
        const { key } = await newAccount(db, { plan: 'pro', credits: 100 });
        const sharp = (await import('sharp')).default;
        const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#ff0000' } })
          .png()
          .toBuffer();
        const up = await fetch(`${stack.base}/v1/assets?name=red.png`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/octet-stream' },
          body: png,
        });
        assert.equal(up.status, 201);
        const asset = (await up.json()) as { id: string; url: string; kind: string; contentType: string; size: number };
        assert.deepEqual([asset.kind, asset.contentType, asset.size], ['image', 'image/png', png.length]);

        const bogus = await fetch(`${stack.base}/v1/assets`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'image/png' },
          body: '<html>not an image</html>',
        });
        assert.equal(bogus.status, 422);
        assert.equal(((await bogus.json()) as { error: { code: string } }).error.code, 'ASSET_INVALID');
        const list = await api(stack, key, 'GET', '/v1/assets');
        assert.equal(list.body.total, 1, 'the refused upload stored nothing');

        const movie = tinyMovie({
          elements: [{ id: 'img', type: 'image', src: asset.url, width: 180, height: 180, fit: 'fill' }],
        });
        const created = await api(stack, key, 'POST', '/v1/renders', { movie });
        const { render } = await untilFinished(stack, key, created.body.id as string);
        assert.equal(render.status, 'done', JSON.stringify(render.error));
        const file = path.join(tmpdir(), `${render.id}.mp4`);
        await writeFile(file, Buffer.from(await (await fetch(render.outputUrl as string)).arrayBuffer()));
        const [r, g, b] = await centrePixel(file);
        assert.ok(r > 200 && g < 60 && b < 60, `centre pixel is red: ${r},${g},${b}`);

        const del = await fetch(`${stack.base}/v1/assets/${asset.id}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${key}` },
        });
        assert.equal(del.status, 204);
        assert.equal((await fetch(asset.url)).status, 404);
      } finally {
        await stack.close();
        await db.close();
      }
    });
  });
}
