/**
 * What the player's tests and its benchmark share: a real `framewright serve` (its embedded
 * defaults) that allows a page on another origin (CORS_ALLOWED_ORIGINS), that page (served here,
 * loading the player from the API as any web page would), Chromium with WebGL 2 (SwiftShader: no
 * GPU here), and the worker's own frames of a preview, drawn in this process from the very files
 * the page fetched.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { createFrameRenderer } from '../../worker/draw/gpu/frame-renderer.ts';
import { workerFrameHost } from '../../worker/draw/gpu/worker-host.ts';
import { decodeClips } from '../../worker/draw/still-frame.ts';
import type { VideoReader } from '../../worker/draw/video-reader.ts';
import { layerBox } from '../../worker/plan/dirty-rects.ts';
import { frameState, indexPlan } from '../../worker/plan/frame-state.ts';
import type { RenderPlan } from '../../worker/plan/plan.ts';
import { launchChromium } from '../dashboard/browser.ts';
import { freePort } from '../services/free-port.ts';
import { type ServeProcess, spawnServe, stopServe, untilReady } from '../services/serve-process.ts';

/** The page: the player module from the API, and two calls the tests make through `page.evaluate`. */
function pageHtml(api: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>player</title></head>
<body style="margin:0;background:#111"><div id="stage" style="width:960px"></div>
<script type="module">
import { FramewrightPlayer } from '${api}/player/framewright-player.js';
const player = new FramewrightPlayer(document.getElementById('stage'), { apiUrl: '${api}', token: () => window.token });
window.player = player;
window.fw = {
  async load(request) { const r = await player.load(request); return { id: r.id, width: r.width, height: r.height, totalFrames: r.total_frames, filesUrl: r.files_url, plan: r.plan }; },
  async frame(f, from) {
    const rgba = await player.frameRgba(f, from);
    let s = '';
    for (let i = 0; i < rgba.length; i += 0x8000) s += String.fromCharCode.apply(null, rgba.subarray(i, i + 0x8000));
    return btoa(s);
  },
};
window.ready = true;
</script></body></html>`;
}

export interface PlayerRig {
  api: string;
  page: Page;
  served: ServeProcess;
  /** The API key of the first account (for minting preview tokens). */
  key: string;
  /** A fresh preview token, set as the page's token. */
  newToken(): Promise<string>;
  close(): Promise<void>;
}

/** serve + the page's origin + Chromium, the page loaded with a preview token. */
export async function startPlayerRig(viewport = { width: 1000, height: 700 }): Promise<PlayerRig> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'fw-player-'));
  const [apiPort, pagePort] = [await freePort(), await freePort()];
  const api = `http://127.0.0.1:${apiPort}`;
  const origin = `http://127.0.0.1:${pagePort}`;
  const served = spawnServe({
    PORT: String(apiPort),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_BASE_URL: api,
    CORS_ALLOWED_ORIGINS: origin,
    // The bench movies' clip comes from a server on this machine.
    ALLOW_PRIVATE_URLS: 'true',
    PLAN_RATE_LIMITS: 'trial=6000',
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    REDIS_URL: '',
    S3_BUCKET: '',
  });
  const pageServer: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pageHtml(api));
  });
  await new Promise<void>((resolve) => pageServer.listen(pagePort, '127.0.0.1', resolve));
  let closeBrowser: (() => Promise<void>) | undefined;
  const close = async () => {
    await closeBrowser?.();
    await new Promise((resolve) => pageServer.close(resolve));
    await stopServe(served);
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await untilReady(served, api, 60_000);
    const key = /API key \(shown once, store it now\): (\S+)/.exec(served.log())?.[1];
    assert.ok(key, served.log());
    const browser = await launchChromium(viewport);
    closeBrowser = browser.close;
    const page = await browser.context.newPage();
    page.on('pageerror', (e) => process.stderr.write(`page error: ${e.message}\n`));
    await page.goto(`${origin}/`);
    await page.waitForFunction('window.ready === true');
    const newToken = async () => {
      const res = await fetch(`${api}/v1/preview-tokens`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
      });
      assert.equal(res.status, 201, await res.clone().text());
      const { token } = (await res.json()) as { token: string };
      await page.evaluate(`window.token = ${JSON.stringify(token)}`);
      return token;
    };
    await newToken();
    return { api, page, served, key, newToken, close };
  } catch (err) {
    await close();
    throw err;
  }
}

export interface PageLoaded {
  id: string;
  width: number;
  height: number;
  totalFrames: number;
  filesUrl: string;
  plan: RenderPlan;
}

/** Loads `request` into the page's player; answers what the preview route said. */
export function loadInPage(page: Page, request: unknown): Promise<PageLoaded> {
  return page.evaluate(`window.fw.load(${JSON.stringify(request)})`) as Promise<PageLoaded>;
}

/** Frame `f` as the player drew it in the page (RGBA, rows bottom-up): its scene target, or the canvas shown. */
export async function pageFrame(page: Page, f: number, from: 'scene' | 'canvas' = 'scene'): Promise<Buffer> {
  return Buffer.from((await page.evaluate(`window.fw.frame(${f}, '${from}')`)) as string, 'base64');
}

/**
 * The worker's own frames of a preview: its files fetched (the bytes the page drew from), then
 * each frame drawn by the frame graph on headless-gl (worker-host.ts), clips decoded by ffmpeg
 * (draw/video-reader.ts) as a render decodes them, and read back as RGBA before any encoding.
 */
export async function workerFrames(loaded: PageLoaded, frames: number[], ffmpeg = 'ffmpeg'): Promise<Buffer[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fw-player-frames-'));
  try {
    const local = async (name: string) => {
      const file = path.join(dir, name.replace(/[^A-Za-z0-9.-]/g, '_'));
      const res = await fetch(`${loaded.filesUrl}${encodeURIComponent(name)}`);
      assert.equal(res.status, 200, name);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, Buffer.from(await res.arrayBuffer()));
      return file;
    };
    const files = new Map<string, string>();
    const at = async (name: string) => {
      let f = files.get(name);
      if (!f) {
        f = await local(name);
        files.set(name, f);
      }
      return f;
    };
    const plan: RenderPlan = {
      ...loaded.plan,
      layers: await Promise.all(
        loaded.plan.layers.map(async (l) => {
          if (l.video) return { ...l, video: { ...l.video, file: await at(l.video.file) } };
          return {
            ...l,
            texture: { ...l.texture, file: await at(l.texture.file) },
            ...(l.frames
              ? {
                  frames: {
                    ...l.frames,
                    textures: await Promise.all(l.frames.textures.map(async (t) => ({ ...t, file: await at(t.file) }))),
                  },
                }
              : {}),
            ...(l.zoomed
              ? {
                  zoomed: await Promise.all(
                    l.zoomed.map(async (z) => ({ ...z, texture: { ...z.texture, file: await at(z.texture.file) } })),
                  ),
                }
              : {}),
          };
        }),
      ),
    };
    const index = indexPlan(plan);
    const renderer = createFrameRenderer(plan.width, plan.height, workerFrameHost());
    const readers: VideoReader[] = [];
    try {
      const out: Buffer[] = [];
      for (const f of frames) {
        const state = frameState(index, f);
        await decodeClips(plan, state, f, ffmpeg, readers);
        const incoming = state.incoming && {
          background: state.incoming.scene.background,
          layers: state.incoming.layers,
          type: state.incoming.type,
          progress: state.incoming.progress,
        };
        renderer.draw(state.scene.background, state.layers, incoming);
        out.push(Buffer.from(renderer.readRgba()));
        for (const r of readers.splice(0)) r.close();
      }
      return out;
    } finally {
      for (const r of readers) r.close();
      renderer.dispose();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface FrameDifference {
  /** Mean absolute difference per channel (R, G, B), 0-255. */
  mean: [number, number, number];
  /**
   * The largest mean absolute difference (over R, G and B) of any 16x16 tile, and where it is
   * (top-left, image coordinates): of the tiles outside `clips`, and of those that meet one.
   */
  worstTile: { diff: number; x: number; y: number };
  worstClipTile: { diff: number; x: number; y: number };
}

/** A rectangle of the frame, image coordinates (y down), x1 and y1 excluded. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Where frame `f`'s clips are drawn (their layers' boxes, motion included: plan/dirty-rects.ts). */
export function clipBoxes(plan: RenderPlan, f: number): Box[] {
  const state = frameState(indexPlan(plan), f);
  return [...state.layers, ...(state.incoming?.layers ?? [])].filter((s) => s.videoSec !== undefined).map(layerBox);
}

/**
 * How far two RGBA frames (rows bottom-up, both) are apart: per channel, and per 16x16 tile, the
 * tiles that meet a clip's box apart (a clip is decoded by the browser there, by ffmpeg in the worker).
 */
export function frameDifference(
  a: Buffer,
  b: Buffer,
  width: number,
  height: number,
  clips: Box[] = [],
): FrameDifference {
  assert.equal(a.length, width * height * 4);
  assert.equal(b.length, width * height * 4);
  const sums = [0, 0, 0];
  const T = 16;
  const tilesX = Math.ceil(width / T);
  const tiles = new Float64Array(tilesX * Math.ceil(height / T));
  const counts = new Uint32Array(tiles.length);
  for (let y = 0; y < height; y++) {
    const row = y * width * 4;
    const ty = Math.floor(y / T) * tilesX;
    for (let x = 0; x < width; x++) {
      const i = row + x * 4;
      const dr = Math.abs(a[i]! - b[i]!);
      const dg = Math.abs(a[i + 1]! - b[i + 1]!);
      const db = Math.abs(a[i + 2]! - b[i + 2]!);
      sums[0]! += dr;
      sums[1]! += dg;
      sums[2]! += db;
      const t = ty + Math.floor(x / T);
      tiles[t]! += (dr + dg + db) / 3;
      counts[t]!++;
    }
  }
  const area = width * height;
  const worst = { diff: 0, x: 0, y: 0 };
  const worstClip = { diff: 0, x: 0, y: 0 };
  for (let t = 0; t < tiles.length; t++) {
    const d = tiles[t]! / counts[t]!;
    // Rows are bottom-up: the tile's rows in image coordinates.
    const x = (t % tilesX) * T;
    const rowsFromBottom = Math.floor(t / tilesX) * T;
    const y1 = height - rowsFromBottom;
    const y = Math.max(0, y1 - T);
    const inClip = clips.some((c) => c.x0 < x + T && c.x1 > x && c.y0 < y1 && c.y1 > y);
    const w = inClip ? worstClip : worst;
    if (d > w.diff) Object.assign(w, { diff: d, x, y });
  }
  return { mean: [sums[0]! / area, sums[1]! / area, sums[2]! / area], worstTile: worst, worstClipTile: worstClip };
}
