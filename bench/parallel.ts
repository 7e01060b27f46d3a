/**
 * `framewright bench parallel` (make bench-parallel): a 10-minute 1080p30 movie (examples/
 * bench-60s.json ten times over: text, images, animations, voice, subtitles) rendered the way a
 * cluster renders it, step by step: prepare once, then the segments as 1, 4 and 8 pods would
 * render them, then the join. This machine has 2 cores, so running 8 segments at once would only
 * share them: each segment runs alone, as on a node of its own, and the wall time on N nodes is
 * computed as prepare + the slowest segment + join. Every N must decode to the same frames and
 * the same audio as N = 1 (ffmpeg framemd5, decoded PCM).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { type WorkManifest, workKey } from '../lib/render-work.ts';
import { LocalObjectStore } from '../lib/storage/local-store.ts';
import { type Movie, validateMovie } from '../movie/index.ts';
import { frameMd5s } from '../test/worker/media.ts';
import { workerConfigFromEnv } from '../worker/cli/config.ts';
import type { RenderPlan } from '../worker/plan/plan.ts';
import { splitFrames } from '../worker/plan/segments.ts';
import { joinStep, prepareStep, segmentStep } from '../worker/run/cluster-steps.ts';
import { measure } from './measure.ts';

const run = promisify(execFile);
const RENDER_ID = 'rnd_bench';

/** bench-60s's scenes `times` times over, with ids made unique. */
function longMovie(base: Movie, times: number): Movie {
  return {
    ...base,
    scenes: Array.from({ length: times }, (_, k) =>
      base.scenes.map((s) => ({
        ...s,
        id: `${s.id}-${k}`,
        elements: s.elements.map((e) => ({ ...e, id: `${e.id}-${k}` })),
      })),
    ).flat(),
  } as Movie;
}

async function pcmMd5(file: string): Promise<string> {
  const { stdout } = await run('ffmpeg', ['-v', 'error', '-i', file, '-map', '0:a', '-f', 'md5', '-']);
  return stdout.trim();
}

export async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { movie: { type: 'string', default: 'examples/bench-60s.json' }, quick: { type: 'boolean' } },
  });
  const minutes = values.quick ? 2 : 10;
  const counts = values.quick ? [1, 4] : [1, 4, 8];
  const checked = validateMovie(longMovie(JSON.parse(readFileSync(values.movie!, 'utf8')), minutes));
  if (!checked.ok) {
    process.stderr.write(`bench parallel: the movie is invalid: ${JSON.stringify(checked.findings).slice(0, 400)}\n`);
    return 1;
  }
  const dir = mkdtempSync(join(tmpdir(), 'fw-bench-parallel-'));
  const objects = new LocalObjectStore(join(dir, 'store'));
  const config = workerConfigFromEnv();
  const ctx = { renderId: RENDER_ID, objects, config, tmpRoot: dir };
  try {
    process.stderr.write(`preparing a ${minutes}-minute movie...\n`);
    const prepared = await measure(() =>
      prepareStep({ ...ctx, movie: checked.value, format: 'mp4', draft: false, watermark: false, maxSegments: 8 }),
    );
    const manifestKey = workKey(RENDER_ID, 'manifest.json');
    const manifest = JSON.parse(readFileSync(join(dir, 'store', manifestKey), 'utf8')) as WorkManifest<RenderPlan>;
    const { plan } = manifest;
    type Row = { n: number; segWall: number[]; segCpu: number[]; joinWall: number; joinCpu: number; out: string };
    const rows: Row[] = [];
    for (const n of counts) {
      // The same prepared work, cut into n segments (on chunk boundaries, as the prepare pod cuts).
      manifest.ranges = splitFrames(plan.totalFrames, n, plan.chunkFrames);
      await objects.putBuffer(manifestKey, Buffer.from(JSON.stringify(manifest)), 'application/json');
      const segWall: number[] = [];
      const segCpu: number[] = [];
      for (let i = 0; i < manifest.ranges.length; i++) {
        process.stderr.write(`N=${n}: segment ${i + 1} of ${manifest.ranges.length}...\n`);
        const m = await measure(() => segmentStep({ ...ctx, index: i }));
        segWall.push(m.wallSec);
        segCpu.push(m.cpuSec);
      }
      const out = join(dir, `out-${n}.mp4`);
      const joined = await measure(() => joinStep({ ...ctx, output: out }));
      rows.push({ n, segWall, segCpu, joinWall: joined.wallSec, joinCpu: joined.cpuSec, out });
    }

    process.stderr.write('comparing frames and audio with N=1...\n');
    const reference = rows[0]!;
    const refFrames = await frameMd5s(reference.out);
    const refAudio = await pcmMd5(reference.out);
    const identical: boolean[] = [];
    for (const r of rows) {
      const frames = r === reference ? refFrames : await frameMd5s(r.out);
      const same =
        frames.length === plan.totalFrames &&
        frames.every((f, i) => f === refFrames[i]) &&
        (r === reference || (await pcmMd5(r.out)) === refAudio);
      identical.push(same);
    }

    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const onePod = prepared.wallSec + reference.segWall[0]! + reference.joinWall;
    const fmt = (x: number) => x.toFixed(1);
    const header = [
      'N',
      'prepare s (CPU s)',
      'segments: slowest s, sum s (CPU s)',
      'join s (CPU s)',
      'N-node wall s',
      'ideal s',
      'ratio',
      'same frames+audio',
    ];
    const table = rows.map((r, i) => {
      const wall = prepared.wallSec + Math.max(...r.segWall) + r.joinWall;
      const ideal = onePod / r.n + prepared.wallSec + r.joinWall;
      return [
        String(r.n),
        `${fmt(prepared.wallSec)} (${fmt(prepared.cpuSec)})`,
        `${fmt(Math.max(...r.segWall))}, ${fmt(sum(r.segWall))} (${fmt(sum(r.segCpu))})`,
        `${r.joinWall.toFixed(2)} (${r.joinCpu.toFixed(2)})`,
        fmt(wall),
        fmt(ideal),
        (wall / ideal).toFixed(2),
        identical[i] ? 'yes' : 'NO',
      ];
    });
    const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
    const line = (r: string[]) => r.map((c, i) => c.padStart(widths[i]!)).join('  ');
    process.stdout.write(
      `\n${minutes}-minute ${plan.width}x${plan.height}@${plan.fps} movie, ${plan.totalFrames} frames, ` +
        `${plan.codec}; one pod (baseline, this run): ${fmt(onePod)} s wall\n` +
        `${line(header)}\n${table.map(line).join('\n')}\n`,
    );
    const last = rows.at(-1)!;
    const joinShare = last.joinWall / onePod;
    const lastWall = prepared.wallSec + Math.max(...last.segWall) + last.joinWall;
    const lastIdeal = onePod / last.n + prepared.wallSec + last.joinWall;
    const checks = [
      [`join at N=${last.n}: ${(joinShare * 100).toFixed(2)}% of the one-pod render (target < 3%)`, joinShare < 0.03],
      [
        `${last.n}-node wall ${fmt(lastWall)} s within 1.3x of one-pod/${last.n} + prepare + join (${fmt(lastIdeal)} s): ${(lastWall / lastIdeal).toFixed(2)}x`,
        lastWall <= 1.3 * lastIdeal,
      ],
      ['frames and audio identical at every N', identical.every(Boolean)],
    ] as const;
    for (const [text, ok] of checks) process.stdout.write(`${ok ? 'ok  ' : 'MISS'} ${text}\n`);
    return checks.every(([, ok]) => ok) ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
