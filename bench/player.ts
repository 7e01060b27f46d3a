/**
 * `framewright bench player` (`make bench-player`): the browser player (player/src/player.ts) in
 * headless Chromium on this machine (Debian's, WebGL 2 on whatever ANGLE finds: SwiftShader where
 * there is no GPU), on examples/bench-60s.json at 960x540 and at 1920x1080, in the page of the
 * player's tests (test/player/harness.ts: a real `framewright serve`, a page on another origin
 * that loads the player from the API).
 *
 * For each size it prints
 * - playback: the movie played in real time in stretches (20 s each from 0, 20 and 40 s, each
 *   started paused on its first frame; --quick: the first only), with the frames drawn a second
 *   of wall time, the frames dropped (movie frames never shown because drawing fell behind the
 *   clock: their count, their share of the movie frames that fell in the stretches, and where:
 *   at a scene's start, at a stretch's start, or elsewhere), the mean milliseconds of the
 *   player's draw calls a frame (playbackStats().drawMs: the page's side; the GL work itself runs
 *   in Chromium's GPU process) and the page's requestAnimationFrame rate while it played;
 * - seeking: seeks to random times (a fixed seed) while paused, each timed from the call to its
 *   promise resolving (the frame drawn), and to the frame's pixels being done (a 1-pixel readback
 *   of the canvas right after: the GPU process finished drawing it); p50, p95 and max. Then 60
 *   frames stepped through one at a time within a scene, each to its pixels: what a frame costs.
 *
 * Beside them, measured in the same run: the page's requestAnimationFrame rate with nothing drawn
 * (the most frames any player shows a second here) and the movie's own frame rate (the target).
 * Targets at 540p: the movie's frame rate with at most 5% of its frames dropped, and seeks under
 * 150 ms (p95, to the promise and to the pixels); 1080p is reported without one. The load
 * average is printed too: the figures move with what else the machine runs.
 *
 * 960x540 is the movie as a draft (`draft: true`: half its 1080p size, the document's pixels
 * scaled by the worker); the schema has no 540p resolution, and width/height alone would keep the
 * document's 1080p positions. Both sizes carry the watermark layer (a draft's, and the rig's
 * trial account's), so they draw the same layers.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import type { Movie } from '../movie/index.ts';
import { browserMissing } from '../test/dashboard/browser.ts';
import { loadInPage, type PlayerRig, startPlayerRig } from '../test/player/harness.ts';
import { textTable } from './measure.ts';

/** What the page measures: plain JavaScript (the page runs no TypeScript), installed once as window.bench. */
const PAGE_BENCH = `window.bench = {
  renderer() {
    const c = document.createElement('canvas');
    const gl = c.getContext('webgl2');
    if (!gl) return { renderer: 'no WebGL 2', vendor: '', version: '' };
    const ext = gl.getExtension('WEBGL_debug_renderer_info');
    const out = {
      renderer: String(ext ? gl.getParameter(ext.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER)),
      vendor: String(ext ? gl.getParameter(ext.UNMASKED_VENDOR_WEBGL) : gl.getParameter(gl.VENDOR)),
      version: String(gl.getParameter(gl.VERSION)),
    };
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return out;
  },
  /** requestAnimationFrame callbacks a second over ms, and the longest gap between two. */
  rafRate(ms) {
    return new Promise((resolve) => {
      let n = 0, first = 0, last = 0, worst = 0;
      const step = (t) => {
        if (n > 0) worst = Math.max(worst, t - last);
        else first = t;
        last = t;
        n++;
        if (t - first < ms) requestAnimationFrame(step);
        else resolve({ fps: ((n - 1) * 1000) / (last - first), worstGapMs: worst });
      };
      requestAnimationFrame(step);
    });
  },
  /** Plays sec seconds from fromSec (or to the end), counting the page's animation frames beside it. */
  async play(fromSec, sec) {
    const p = window.player;
    await p.seek(fromSec);
    const fps = p.fps;
    const startFrame = Math.round(p.currentTime * fps);
    let rafs = 0, counting = true, worstGap = 0, lastRaf = 0;
    const count = (t) => {
      if (!counting) return;
      if (lastRaf) worstGap = Math.max(worstGap, t - lastRaf);
      lastRaf = t;
      rafs++;
      requestAnimationFrame(count);
    };
    // Where frames were dropped: each run of frames never shown, as [first frame, count].
    const drops = [];
    let prev = startFrame - 1;
    const onTime = () => {
      const f = Math.round(p.currentTime * fps);
      if (f > prev + 1) drops.push([prev + 1, f - prev - 1]);
      prev = Math.max(prev, f);
    };
    p.addEventListener('timeupdate', onTime);
    let ended = false;
    const t0 = performance.now();
    p.play();
    requestAnimationFrame(count);
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, sec * 1000);
      p.addEventListener('ended', () => { ended = true; clearTimeout(timer); resolve(); }, { once: true });
    });
    const wallMs = performance.now() - t0;
    const stats = p.playbackStats();
    const endFrame = Math.round(p.currentTime * fps);
    const audible = p.audible;
    p.pause();
    p.removeEventListener('timeupdate', onTime);
    counting = false;
    return { wallMs, stats, startFrame, endFrame, ended, rafFps: (rafs * 1000) / wallMs, worstRafGapMs: worstGap, audible, drops };
  },
  /** Each seek: to its promise, and to the frame's pixels done (a 1-pixel readback of the canvas). */
  async seeks(times) {
    const p = window.player;
    const gl = p.container.querySelector('canvas').getContext('webgl2');
    const px = new Uint8Array(4);
    const out = [];
    for (const t of times) {
      const t0 = performance.now();
      await p.seek(t);
      const t1 = performance.now();
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
      out.push({ resolvedMs: t1 - t0, pixelsMs: performance.now() - t0 });
    }
    return out;
  },
  /** Stepping n frames on from fromSec, paused: each frame drawn and its pixels done (what a frame costs here). */
  async step(fromSec, n) {
    const p = window.player;
    const gl = p.container.querySelector('canvas').getContext('webgl2');
    const px = new Uint8Array(4);
    await p.seek(fromSec);
    const f0 = Math.round(p.currentTime * p.fps);
    const out = [];
    for (let i = 1; i <= n; i++) {
      const t0 = performance.now();
      await p.seek((f0 + i) / p.fps);
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
      out.push(performance.now() - t0);
    }
    return out;
  },
};`;

interface PlayResult {
  wallMs: number;
  stats: { drawn: number; dropped: number; drawMs: number };
  startFrame: number;
  endFrame: number;
  ended: boolean;
  rafFps: number;
  worstRafGapMs: number;
  audible: boolean;
  drops: [number, number][];
}

interface SizeFigures {
  label: string;
  width: number;
  height: number;
  layers: number;
  loadSec: number;
  fps: number;
  plays: PlayResult[];
  seeks: { resolvedMs: number; pixelsMs: number }[];
  /** Frame steps, paused: each frame drawn and its pixels done. */
  stepMs: number[];
  /** The frames at which scenes start. */
  sceneStarts: number[];
}

/** A small seeded generator (mulberry32): the same seek times every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function measureSize(
  page: Page,
  label: string,
  movie: Movie,
  stretches: number[],
  stretchSec: number,
  seekCount: number,
): Promise<SizeFigures> {
  process.stderr.write(`${label}: preparing and loading...\n`);
  const t0 = performance.now();
  const loaded = await loadInPage(page, { movie });
  const loadSec = (performance.now() - t0) / 1000;
  const duration = loaded.totalFrames / loaded.plan.fps;
  const plays: PlayResult[] = [];
  for (const from of stretches.filter((s) => s < duration)) {
    process.stderr.write(`${label}: playing ${from}-${Math.min(duration, from + stretchSec)} s...\n`);
    plays.push((await page.evaluate(`window.bench.play(${from}, ${stretchSec})`)) as PlayResult);
  }
  const random = seeded(0x5eec);
  const times = Array.from({ length: seekCount }, () => Math.floor(random() * duration * 1000) / 1000);
  process.stderr.write(`${label}: ${seekCount} seeks...\n`);
  const seeks = (await page.evaluate(`window.bench.seeks(${JSON.stringify(times)})`)) as SizeFigures['seeks'];
  // Two seconds into the first scene: its entrances done, its textures on the GPU.
  const stepMs = (await page.evaluate(`window.bench.step(2, ${STEPS})`)) as number[];
  return {
    label,
    width: loaded.width,
    height: loaded.height,
    layers: loaded.plan.layers.length,
    loadSec,
    fps: loaded.plan.fps,
    plays,
    seeks,
    stepMs,
    sceneStarts: loaded.plan.scenes.map((sc) => sc.startFrame),
  };
}

/** Frames stepped through, paused, at each size. */
const STEPS = 60;

/** A run of dropped frames that begins this close after a scene's start (or a stretch's) is counted at it. */
const NEAR = 15;

/** Dropped frames: at scene starts, at the stretches' starts, and elsewhere. */
function whereDropped(f: SizeFigures): { scenes: number; starts: number; elsewhere: number } {
  const out = { scenes: 0, starts: 0, elsewhere: 0 };
  for (const p of f.plays) {
    for (const [at, n] of p.drops) {
      if (at - p.startFrame < NEAR) out.starts += n;
      else if (f.sceneStarts.some((s) => at >= s && at - s < NEAR)) out.scenes += n;
      else out.elsewhere += n;
    }
  }
  return out;
}

const ms = (n: number) => n.toFixed(1);

export async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      movie: { type: 'string', default: 'examples/bench-60s.json' },
      seeks: { type: 'string', default: '24' },
      quick: { type: 'boolean' },
    },
  });
  const missing = browserMissing();
  if (missing) {
    process.stderr.write(`bench player: ${missing}\n`);
    return 1;
  }
  const seekCount = Number(values.seeks);
  // The whole movie in three stretches; --quick: its first 20 s.
  const stretchSec = 20;
  const stretches = values.quick ? [0] : [0, 20, 40];
  const doc = JSON.parse(readFileSync(values.movie!, 'utf8')) as Movie;
  const sizes: { label: string; movie: Movie }[] = [
    { label: '540p', movie: { ...doc, draft: true } },
    { label: '1080p', movie: { ...doc, draft: false } },
  ];

  let rig: PlayerRig | undefined;
  try {
    process.stderr.write('starting framewright serve and Chromium...\n');
    const loadBefore = loadavg()[0]!;
    rig = await startPlayerRig();
    const { page } = rig;
    await page.evaluate(PAGE_BENCH);
    const gl = (await page.evaluate('window.bench.renderer()')) as {
      renderer: string;
      vendor: string;
      version: string;
    };
    process.stderr.write('baseline: requestAnimationFrame with nothing drawn...\n');
    const idle = (await page.evaluate('window.bench.rafRate(5000)')) as { fps: number; worstGapMs: number };
    const figures: SizeFigures[] = [];
    for (const s of sizes) figures.push(await measureSize(page, s.label, s.movie, stretches, stretchSec, seekCount));
    const idleAfter = (await page.evaluate('window.bench.rafRate(3000)')) as { fps: number; worstGapMs: number };
    const loadAfter = loadavg()[0]!;

    const fps = figures[0]!.fps;
    const playRows: string[][] = [
      [
        'baseline: rAF, nothing drawn',
        '',
        '',
        '',
        `${idle.fps.toFixed(1)} (${idleAfter.fps.toFixed(1)} at the end)`,
        ms(Math.max(idle.worstGapMs, idleAfter.worstGapMs)),
        '',
      ],
      ['baseline: the movie', fps.toFixed(1), '0 (target: <= 5%)', `${ms(1000 / fps)} (its budget)`, '', '', ''],
    ];
    const seekRows: string[][] = [];
    const verdicts: string[] = [];
    const details: string[] = [];
    for (const f of figures) {
      const sum = (of: (p: PlayResult) => number) => f.plays.reduce((n, p) => n + of(p), 0);
      const drawn = sum((p) => p.stats.drawn);
      const dropped = sum((p) => p.stats.dropped);
      const wallMs = sum((p) => p.wallMs);
      const frames = sum((p) => p.endFrame - p.startFrame + 1);
      const rafFps = sum((p) => p.rafFps * p.wallMs) / wallMs;
      const droppedPct = (100 * dropped) / frames;
      const drawnFps = (drawn * 1000) / wallMs;
      const where = whereDropped(f);
      playRows.push([
        `${f.label} (${f.width}x${f.height})`,
        drawnFps.toFixed(1),
        `${dropped}/${frames} (${droppedPct.toFixed(1)}%)`,
        ms(sum((p) => p.stats.drawMs) / drawn),
        rafFps.toFixed(1),
        ms(Math.max(...f.plays.map((p) => p.worstRafGapMs))),
        `${where.scenes} / ${where.starts} / ${where.elsewhere}`,
      ]);
      const resolved = f.seeks.map((s) => s.resolvedMs).sort((a, b) => a - b);
      const pixels = f.seeks.map((s) => s.pixelsMs).sort((a, b) => a - b);
      const steps = [...f.stepMs].sort((a, b) => a - b);
      const three = (xs: number[]) => `${ms(percentile(xs, 50))} / ${ms(percentile(xs, 95))} / ${ms(xs.at(-1)!)}`;
      seekRows.push([
        `${f.label} (${f.width}x${f.height})`,
        String(f.seeks.length),
        ms(percentile(resolved, 50)),
        ms(percentile(resolved, 95)),
        ms(resolved.at(-1)!),
        three(pixels),
        three(steps),
      ]);
      if (f.label === '540p') {
        const playOk = droppedPct <= 5 && drawnFps >= 0.95 * f.fps;
        const seekOk = percentile(resolved, 95) < 150 && percentile(pixels, 95) < 150;
        verdicts.push(
          `540p playback: ${playOk ? 'PASS' : 'FAIL'} (${drawnFps.toFixed(1)} fps drawn of the movie's ${f.fps}, ${droppedPct.toFixed(1)}% dropped; target: the movie's rate, at most 5% dropped)`,
          `540p seeking: ${seekOk ? 'PASS' : 'FAIL'} (p95 ${ms(percentile(resolved, 95))} ms, max ${ms(resolved.at(-1)!)} ms; to pixels p95 ${ms(percentile(pixels, 95))} ms, max ${ms(pixels.at(-1)!)} ms; target: p95 under 150 ms, both)`,
        );
      }
      for (const [i, p] of f.plays.entries()) {
        const runs = p.drops.map(([at, n]) => (n > 1 ? `${at}+${n}` : `${at}`));
        const drops = runs.length > 12 ? [...runs.slice(0, 12), `${runs.length - 12} more runs`] : runs;
        details.push(
          `${f.label} stretch ${i + 1}: frames ${p.startFrame}-${p.endFrame}${p.ended ? ' (to the end)' : ''} in ${(p.wallMs / 1000).toFixed(1)} s, ` +
            `${p.stats.drawn} drawn, ${p.stats.dropped} dropped${drops.length ? ` (at ${drops.join(', ')})` : ''}, rAF ${p.rafFps.toFixed(1)}/s`,
        );
      }
    }
    const clock = figures.every((f) => f.plays.every((p) => p.audible)) ? 'its sound (WebAudio)' : 'performance.now()';
    const f0 = figures[0]!;
    process.stdout.write(
      `\nChromium WebGL: ${gl.renderer} (${gl.vendor}; ${gl.version})\n` +
        `machine: ${availableParallelism()} CPUs (${cpus()[0]?.model.trim() ?? 'unknown'}), load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after\n` +
        `movie: ${values.movie}, ${f0.plays.length * stretchSec} s played at each size (stretches of ${stretchSec} s from ${stretches.join(', ')} s), the player's clock: ${clock}; ` +
        `prepared and loaded in ${figures.map((f) => `${f.loadSec.toFixed(1)} s (${f.label}, ${f.layers} layers)`).join(', ')}\n\n` +
        `${textTable(['playback', 'fps drawn', 'dropped', 'draw ms/frame', 'rAF/s', 'worst rAF gap ms', 'dropped at scenes / starts / else'], playRows)}\n\n` +
        `${textTable(['seeking (paused)', 'seeks', 'p50 ms', 'p95 ms', 'max ms', 'to pixels p50/p95/max', `${STEPS} frame steps p50/p95/max`], seekRows)}\n\n` +
        `${verdicts.join('\n')}\n\n` +
        `${details.join('\n')}\n\n` +
        'fps drawn: frames drawn a second of wall time; dropped: movie frames never shown, of the frames that fell in the stretches, ' +
        `and where (a run of them starting within ${NEAR} frames after a scene's start, a stretch's start, or elsewhere); ` +
        "draw ms: the page's time in the frame graph's calls (the GL work itself runs in Chromium's GPU process); rAF/s: the page's animation frames. " +
        'A seek is timed from the call to its promise (the frame drawn); to pixels adds a 1-pixel readback of the canvas (the GPU process done with the frame); ' +
        "frame steps: the next frame shown and read back, one at a time, paused, within a scene (what one frame costs here, against the movie's frame budget)\n",
    );
    return 0;
  } finally {
    await rig?.close();
  }
}
