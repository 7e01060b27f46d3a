/**
 * Stills and a video's poster and thumbnail through the live API (the product as serve assembles
 * it: real worker processes, ffmpeg, local object storage, PostgreSQL): posterUrl and thumbnailUrl
 * of a finished MP4 download as the frame at posterTime, a still render is a render (idempotency,
 * a webhook, its price), and the output sweeper deletes the images with the output.
 *
 * Tolerance of the pixel comparisons: the poster is a JPEG (quality 90) of the MP4's own decoded
 * frame, so its mean absolute difference per channel to that frame is JPEG's loss alone, well
 * under 3 at this size; a frame 1/10 s off (the square slides ~25 px a frame) is far above it.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import path from 'node:path';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret } from '../../lib/webhooks/signature.ts';
import { ensureWebhookSecret } from '../../store/lifecycle/webhook-outbox-repo.ts';
import { backends, newAccount } from '../api/helpers.ts';
import { run, type Stack, startStack } from './harness.ts';

type Render = {
  id: string;
  status: string;
  outputUrl: string | null;
  posterUrl: string | null;
  thumbnailUrl: string | null;
  expiresAt: string | null;
  durationSec: number | null;
  meteredMinutes: number | null;
  error: unknown;
};

const W = 384;
const H = 216;

async function solidPng(color: string): Promise<string> {
  const bytes = await sharp({ create: { width: 16, height: 16, channels: 4, background: color } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${bytes.toString('base64')}`;
}

/** 2 s at 10 fps: a blue square sliding in over the first second on green, a static red mark. */
async function movie(output: Record<string, unknown>) {
  return {
    schema: 'v1',
    width: W,
    height: H,
    fps: 10,
    output,
    scenes: [
      {
        id: 's1',
        duration: 2,
        background: '#008000',
        elements: [
          {
            id: 'square',
            type: 'image',
            src: await solidPng('#0000ff'),
            width: 80,
            height: 80,
            position: { x: 150, y: 60 },
            animation: { preset: 'slide-in-left', duration: 1 },
          },
          {
            id: 'mark',
            type: 'image',
            src: await solidPng('#ff0000'),
            width: 40,
            height: 40,
            position: { x: 320, y: 16 },
          },
        ],
      },
    ],
  };
}

async function api(stack: Stack, key: string, method: string, url: string, body?: unknown, headers = {}) {
  const res = await fetch(`${stack.base}${url}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function untilFinished(stack: Stack, key: string, id: string): Promise<Render> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const r = (await api(stack, key, 'GET', `/v1/renders/${id}`)).body as unknown as Render;
    if (r.status === 'done' || r.status === 'failed') return r;
    if (Date.now() > deadline) throw new Error(`render ${id} still ${r.status}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

async function download(url: string): Promise<{ type: string | null; bytes: Buffer }> {
  const res = await fetch(url);
  assert.equal(res.status, 200, url);
  return { type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

/**
 * Frame `n` of an MP4 as RGB: BT.709 limited range to full, chroma interpolated, accurately
 * rounded (the conversion the poster is made with, so the comparison sees JPEG's loss and the
 * frame's choice, not two scalers' rounding, which alone differ by one code value everywhere).
 */
async function frameRgb(file: string, n: number): Promise<Buffer> {
  const { stdout } = await run(
    'ffmpeg',
    [
      ...[
        '-v',
        'error',
        '-i',
        file,
        '-vf',
        `select=eq(n\\,${n}),scale=in_color_matrix=bt709:in_range=tv:out_range=pc:flags=bicubic+accurate_rnd+full_chroma_int`,
      ],
      ...['-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    ],
    { encoding: 'buffer', maxBuffer: 1 << 24 },
  );
  return stdout as unknown as Buffer;
}

function meanDiff(a: Buffer, b: Buffer): number {
  assert.equal(a.length, b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

const rgbOf = (bytes: Buffer) => sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });

const backend = backends()[0]!; // PostgreSQL under scripts/test.sh

describe(`stills, posters and thumbnails through the API (${backend.name})`, { timeout: 300_000 }, () => {
  it("a finished MP4's posterUrl and thumbnailUrl: the frame at posterTime, full size and 320 px; swept with the output", async (t) => {
    const db = await backend.open();
    const stack = await startStack(db);
    try {
      const { key } = await newAccount(db, { plan: 'trial', credits: 100 });
      const created = await api(stack, key, 'POST', '/v1/renders', { movie: await movie({ posterTime: 0.3 }) });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.posterUrl, null, 'null until done');
      assert.equal(created.body.thumbnailUrl, null);
      const render = await untilFinished(stack, key, created.body.id as string);
      assert.equal(render.status, 'done', JSON.stringify(render.error));
      assert.match(render.posterUrl ?? '', new RegExp(`/v1/outputs/${render.id}/poster\\?expires=\\d+&sig=`));
      const expires = new URL(render.outputUrl!).searchParams.get('expires');
      assert.equal(new URL(render.posterUrl!).searchParams.get('expires'), expires, 'same expiry as outputUrl');
      assert.equal(new URL(render.thumbnailUrl!).searchParams.get('expires'), expires);

      const video = path.join(stack.dataDir, 'video.mp4');
      await import('node:fs/promises').then(async (fs) =>
        fs.writeFile(video, (await download(render.outputUrl!)).bytes),
      );
      // 0.3 s is frame 3 at 10 fps; the square slides fast there (ease-out), so 2 and 4 differ.
      const frames = await Promise.all([2, 3, 4].map((n) => frameRgb(video, n)));

      const poster = await download(render.posterUrl!);
      assert.equal(poster.type, 'image/jpeg');
      const p = await rgbOf(poster.bytes);
      assert.deepEqual([p.info.width, p.info.height], [W, H]);
      const [d2, d3, d4] = frames.map((f) => meanDiff(p.data, f));
      t.diagnostic(`poster: mean abs diff to frames 2, 3, 4: ${[d2, d3, d4].map((d) => d!.toFixed(3))}`);
      assert.ok(d3! < 3, `the frame at 0.3 s: ${d3}`);
      assert.ok(d2! > 2 * d3! && d4! > 2 * d3!, `its neighbours differ more: ${d2}, ${d4}`);

      const thumbnail = await download(render.thumbnailUrl!);
      assert.equal(thumbnail.type, 'image/webp');
      const th = await rgbOf(thumbnail.bytes);
      assert.deepEqual([th.info.width, th.info.height], [320, 180]);
      const small = await sharp(frames[1]!, { raw: { width: W, height: H, channels: 3 } })
        .resize({ width: 320 })
        .raw()
        .toBuffer();
      assert.ok(meanDiff(th.data, small) < 4, `thumbnail vs the frame scaled: ${meanDiff(th.data, small)}`);

      // Each link opens its own image only: a poster signature does not open the thumbnail.
      const crossed = render.thumbnailUrl!.replace(
        /sig=.*/,
        new URL(render.posterUrl!).search.replace(/.*sig=/, 'sig='),
      );
      assert.equal((await fetch(crossed)).status, 404);
      const forged = render.posterUrl!.replace(/sig=(.)/, (_, c) => `sig=${c === 'A' ? 'B' : 'A'}`);
      assert.equal((await fetch(forged)).status, 404);

      // Past retention (trial: 30 days) the sweeper deletes the output, the poster and the thumbnail.
      for (const k of [`posters/${render.id}.jpg`, `thumbnails/${render.id}.webp`]) {
        assert.ok(await stack.pipeline.objects.head(k), k);
      }
      stack.clock.advance(31 * 86_400_000);
      const { sweepExpiredOutputs } = await import('../../api/execution/output-sweeper.ts');
      const swept = await sweepExpiredOutputs({
        db,
        objects: stack.pipeline.objects,
        logger: stack.app.log as never,
        now: stack.clock.now,
      });
      assert.equal(swept, 1);
      for (const k of [`renders/${render.id}.mp4`, `posters/${render.id}.jpg`, `thumbnails/${render.id}.webp`]) {
        assert.equal(await stack.pipeline.objects.head(k), null, `${k} deleted`);
      }
      const gone = await fetch(render.posterUrl!);
      assert.equal(gone.status, 410);
      assert.equal(((await gone.json()) as { error: { code: string } }).error.code, 'OUTPUT_EXPIRED');
    } finally {
      await stack.close();
      await db.close();
    }
  });

  it('a still render is a render: idempotent, one webhook, priced as one second, a PNG of the frame with a thumbnail', async () => {
    const db = await backend.open();
    const stack = await startStack(db);
    const received: { headers: IncomingMessage['headers']; body: string }[] = [];
    const receiver: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    try {
      const { key, accountId } = await newAccount(db, { plan: 'pro', credits: 100 });
      const secret = await ensureWebhookSecret(db.sql, accountId, newWebhookSecret);
      const body = { movie: await movie({ format: 'png', time: 1.5 }), webhook_url: hook };
      const idem = { 'idempotency-key': 'still-1' };
      const first = await api(stack, key, 'POST', '/v1/renders', body, idem);
      assert.equal(first.status, 201, JSON.stringify(first.body));
      const again = await api(stack, key, 'POST', '/v1/renders', body, idem);
      assert.equal(again.status, 200, 'a replay');
      assert.equal(again.body.id, first.body.id);
      const changed = await api(
        stack,
        key,
        'POST',
        '/v1/renders',
        { ...body, movie: await movie({ format: 'jpeg' }) },
        idem,
      );
      assert.equal(changed.status, 409);

      const render = await untilFinished(stack, key, first.body.id as string);
      assert.equal(render.status, 'done', JSON.stringify(render.error));
      assert.equal(render.durationSec, 2, "the movie's length");
      assert.equal(render.meteredMinutes, 0.0167, 'one second of video at weight 1');
      const usage = await api(stack, key, 'GET', '/v1/usage');
      assert.deepEqual(usage.body.credits, { balance: 99, reserved: 0, available: 99 });

      const png = await download(render.outputUrl!);
      assert.equal(png.type, 'image/png');
      const still = await rgbOf(png.bytes);
      assert.deepEqual([still.info.width, still.info.height], [W, H]);
      // At 1.5 s the slide is over: the square is in place, exactly blue (the yuv420p round trip only).
      const at = (x: number, y: number) => [...still.data.subarray((y * W + x) * 3, (y * W + x) * 3 + 3)];
      for (const [x, y, rgb] of [
        [190, 100, [0, 0, 255]],
        [340, 36, [255, 0, 0]],
        [5, 5, [0, 128, 0]],
        [140, 100, [0, 128, 0]],
      ] as const) {
        assert.ok(
          at(x, y).every((v, i) => Math.abs(v - rgb[i]!) <= 3),
          `(${x}, ${y}) is ${at(x, y)}, not ${rgb}`,
        );
      }
      assert.equal(render.posterUrl, null, 'a still is its own poster');
      const thumbnail = await sharp((await download(render.thumbnailUrl!)).bytes).metadata();
      assert.deepEqual([thumbnail.format, thumbnail.width, thumbnail.height], ['webp', 320, 180]);

      await stack.pipeline.dispatcher.deliverDue();
      assert.equal(received.length, 1);
      const event = new Webhook(secret).verify(received[0]!.body, received[0]!.headers as Record<string, string>) as {
        type: string;
        data: Render;
      };
      assert.equal(event.type, 'render.completed');
      assert.equal(event.data.id, render.id);
      assert.equal(event.data.thumbnailUrl, render.thumbnailUrl);
      assert.equal(event.data.posterUrl, null);
    } finally {
      receiver.close();
      await stack.close();
      await db.close();
    }
  });
});
