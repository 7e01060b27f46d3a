/**
 * `framewright bench render`: renders examples/bench-60s.json (serial and --parallel 2) and a
 * silent variant, and prints wall time, realtime factor, frames per second and the peak RSS of
 * the whole process tree, beside the encode floor measured in the same run: ffmpeg alone encoding
 * the same number of frames, same size and settings, from a yuv420p source.
 *
 * Beside it, examples/bench-60s-text.json: a text-heavy 60 s 1080p30 movie (twelve scenes in
 * eight scripts and emoji, a styled title each, a caption line every second, no voice), rendered
 * three times alternated with bench-60s, the medians' realtime factors compared (target: at
 * least 0.9x bench-60s's) and the peak RSS of each.
 *
 * Beside them too, examples/bench-60s-motion.json: 60 s of 1080p30 motion graphics (shapes entering
 * and leaving, sliding text, a blurred picture, rounded corners and filters, a blurred fill, a
 * chroma-keyed clip), rendered alternated with bench-60s as the text movie is (target: at least
 * 0.7x bench-60s's realtime factor), with its peak RSS, and once more with no layer drawn (its
 * changed rectangles cleared, converted, read back and encoded: render-movie.ts `layers: false`),
 * the most that leaves for drawing on this machine.
 *
 * Then the same movie over a 1080p30 background clip (BT.709, looping, one per scene, continuing
 * where the previous scene's left off) with a soundtrack under the voiceover: the video path's
 * realtime factor (target: at least 3x) and peak memory beside the image-only movie's.
 *
 * Then quality per byte: the same movie rendered at each `quality` and once losslessly (the
 * reference), and the lossless frames encoded by x264 veryfast and ultrafast at CRF 20 (what
 * other renderers ship), each with its video bytes and SSIM against the reference. Targets for
 * `balanced` (the default): at most 1.25x veryfast's bytes at an SSIM at least veryfast's, and at
 * least 0.9x the speed of `fast` (the median of three renders each, alternated).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';

const execFileP = promisify(execFile);

import { type Movie, validateMovie } from '../movie/index.ts';
import { workerConfigFromEnv } from '../worker/cli/config.ts';
import { chooseCodec } from '../worker/encode/encoder-probe.ts';
import { codecArgs, QUIET } from '../worker/encode/ffmpeg-args.ts';
import { runFfmpeg } from '../worker/encode/ffmpeg-process.ts';
import type { EncodeQuality, VideoCodec } from '../worker/plan/plan.ts';
import type { WorkerConfig } from '../worker/run/prepare-render.ts';
import { renderMovie } from '../worker/run/render-movie.ts';
import { renderAgainst } from './against.ts';
import { measure, textTable } from './measure.ts';
import { greenScreenClip, withKeyedClip } from './motion.ts';

/**
 * `movie` over a background clip: each scene's first element becomes `clip` (full frame, cover,
 * looped, muted), trimmed to continue where the previous scene stopped, and `music` is the
 * soundtrack, ducked under the voice.
 */
function backgroundVideoVariant(movie: Movie, clip: string, music: string, clipSec: number): Movie {
  let at = 0;
  return {
    ...movie,
    soundtrack: { src: music, volume: 0.6 },
    scenes: movie.scenes.map((s, i) => {
      const trimStart = at % clipSec;
      at += typeof s.duration === 'number' ? s.duration : 10;
      return {
        ...s,
        elements: [
          {
            id: `background-${i}`,
            type: 'video' as const,
            src: clip,
            fit: 'cover' as const,
            loop: true,
            muted: true,
            trimStart,
          },
          ...s.elements,
        ],
      };
    }),
  };
}

/** Makes the background clip and the music with ffmpeg and serves them on loopback. */
export async function mediaSources(
  ffmpeg: string,
  dir: string,
): Promise<{ clip: string; clipFile: string; music: string; keyed: string; clipSec: number; close: () => void }> {
  const clipSec = 20;
  await runFfmpeg(ffmpeg, [
    ...[...QUIET, '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=30', '-t', String(clipSec)],
    ...['-vf', 'scale=out_color_matrix=bt709:out_range=tv,format=yuv420p'],
    ...['-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709', '-color_range', 'tv'],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', join(dir, 'background.mp4')],
  ]);
  await runFfmpeg(ffmpeg, [
    ...[...QUIET, '-y', '-f', 'lavfi', '-i', 'sine=frequency=220:sample_rate=44100', '-f', 'lavfi'],
    ...['-i', 'sine=frequency=330:sample_rate=44100', '-filter_complex', 'amix=inputs=2', '-t', '30'],
    ...['-c:a', 'libmp3lame', '-b:a', '128k', join(dir, 'music.mp3')],
  ]);
  await greenScreenClip(ffmpeg, join(dir, 'green-screen.mp4'));
  const files: Record<string, [string, string]> = {
    '/background.mp4': [join(dir, 'background.mp4'), 'video/mp4'],
    '/green-screen.mp4': [join(dir, 'green-screen.mp4'), 'video/mp4'],
    '/music.mp3': [join(dir, 'music.mp3'), 'audio/mpeg'],
  };
  const server = createServer((req, res) => {
    const hit = files[req.url ?? ''];
    if (!hit) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': hit[1] }).end(readFileSync(hit[0]));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    clip: `${base}/background.mp4`,
    clipFile: join(dir, 'background.mp4'),
    music: `${base}/music.mp3`,
    keyed: `${base}/green-screen.mp4`,
    clipSec,
    close: () => server.close(),
  };
}

function silentVariant(movie: Movie): Movie {
  return {
    ...movie,
    scenes: movie.scenes.map((s) => ({
      ...s,
      duration: s.duration === 'voice' ? 10 : s.duration,
      elements: s.elements.filter((e) => e.type !== 'voice' && e.type !== 'subtitles'),
    })),
  };
}

/**
 * A run and its comparison, `reps` of each, alternated (first: the run already made), so that
 * both see the same drift of this machine's speed (20% over minutes; their ratio much less).
 */
async function alternated<A, B>(
  first: A,
  run: () => Promise<A>,
  reps: number,
  other: () => Promise<B>,
): Promise<[A[], B[]]> {
  const runs = [first];
  const others: B[] = [];
  for (let n = 0; n < reps; n++) {
    others.push(await other());
    if (n < reps - 1) runs.push(await run());
  }
  return [runs, others];
}

export async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      movie: { type: 'string', default: 'examples/bench-60s.json' },
      'text-movie': { type: 'string', default: 'examples/bench-60s-text.json' },
      'motion-movie': { type: 'string', default: 'examples/bench-60s-motion.json' },
      quick: { type: 'boolean' },
      against: { type: 'string' },
    },
  });
  const load = (file: string): Movie | undefined => {
    const checked = validateMovie(JSON.parse(readFileSync(file, 'utf8')));
    if (checked.ok) return checked.value;
    process.stderr.write(`${file} is not a valid movie: ${JSON.stringify(checked.findings.slice(0, 3))}\n`);
    return undefined;
  };
  const bench60 = load(values.movie!);
  const textMovie = load(values['text-movie']!);
  const motionMovie = load(values['motion-movie']!);
  if (!bench60 || !textMovie || !motionMovie) return 1;
  const config = workerConfigFromEnv();
  if (values.against) return against(values.against, config, [bench60, textMovie, motionMovie], values.quick ? 1 : 3);
  const { codec, reason } = await chooseCodec(config.ffmpegPath);
  const dir = mkdtempSync(join(tmpdir(), 'fw-bench-render-'));
  const rows: string[][] = [];
  try {
    process.stderr.write(`encoder: ${codec} (${reason.slice(0, 120)})\n`);
    const media = await mediaSources(config.ffmpegPath, dir);
    const mediaConfig: WorkerConfig = { ...config, allowPrivateUrls: true };
    const runs: [string, Movie, number, WorkerConfig][] = [
      ['bench-60s (voice, subtitles)', bench60, 1, config],
      [
        'bench-60s over a 1080p30 clip, with music',
        backgroundVideoVariant(bench60, media.clip, media.music, media.clipSec),
        1,
        mediaConfig,
      ],
      ['bench-60s --parallel 2', bench60, 2, config],
      ['bench-60s silent variant', silentVariant(bench60), 1, config],
    ];
    let frames = 0;
    let width = 0;
    let height = 0;
    let fps = 30;
    /** ffmpeg alone decoding the background clip and encoding as many frames as the movie has. */
    const measureClipFloor = () =>
      measure(() =>
        runFfmpeg(config.ffmpegPath, [
          ...[...QUIET, '-y', '-stream_loop', '-1', '-i', media.clipFile, '-an', '-frames:v', String(frames)],
          ...codecArgs(codec, fps, 'balanced', availableParallelism()),
          ...['-pix_fmt', 'yuv420p', '-f', 'mp4', join(dir, 'clip-floor.mp4')],
        ]),
      );
    let clipFloor: Awaited<ReturnType<typeof measureClipFloor>> | undefined;
    /** A render, measured, with the seconds it spent preparing (assets, speech, text rasters). */
    const measureRender = async (movie: Movie, runConfig: WorkerConfig, parallel: number, layers = true) => {
      const started = performance.now();
      let prepareSec = 0;
      const m = await measure(() =>
        renderMovie({
          movie,
          output: join(dir, 'out.mp4'),
          config: runConfig,
          parallel,
          codec,
          ...(layers ? {} : { layers: false }),
          onProgress: (e) => {
            if (e.phase === 'rendering' && prepareSec === 0) prepareSec = (performance.now() - started) / 1000;
          },
        }),
      );
      return { ...m, prepareSec };
    };
    const byWall = (a: { wallSec: number }, b: { wallSec: number }) => a.wallSec - b.wallSec;
    /** The run of median wall time. */
    const medianRun = <T extends { wallSec: number }>(tries: T[]): T =>
      [...tries].sort(byWall)[Math.floor(tries.length / 2)]!;
    /** A table row of a render: the figures of `m`, the notes after its frame counts. */
    const renderRow = (name: string, m: Awaited<ReturnType<typeof measureRender>>, note: string) => {
      const r = m.value;
      const composited = r.segmentStats.reduce((n, st) => n + st.composited, 0);
      const drawSec = r.segmentStats.reduce((n, st) => n + st.drawMs, 0) / 1000;
      const row = [
        name,
        m.wallSec.toFixed(2),
        (r.durationSec / m.wallSec).toFixed(2),
        (r.totalFrames / m.wallSec).toFixed(1),
        m.cpuSec.toFixed(1),
        m.peakMb.toFixed(0),
        m.peakPssMb.toFixed(0),
        `${r.renderedFrames}/${r.totalFrames} drawn${composited ? `, ${composited} composited by ffmpeg` : ''}; ` +
          `prepare ${m.prepareSec.toFixed(1)} s, drawing ${drawSec.toFixed(1)} s${note}`,
      ];
      rows.push(row);
      return row;
    };
    let serialRow: string[] | undefined;
    let videoRow: string[] | undefined;
    let textRow: string[] | undefined;
    let textWalls = '';
    let motionRow: string[] | undefined;
    let motionWalls = '';
    let undrawnRow: string[] | undefined;
    let undrawnWalls = '';
    const reps = values.quick ? 1 : 3;
    for (const [i, [name, movie, parallel, runConfig]] of (values.quick ? runs.slice(0, 2) : runs).entries()) {
      process.stderr.write(`rendering ${name}...\n`);
      const render = () => measureRender(movie, runConfig, parallel);
      let m = await render();
      let note = '';
      frames = m.value.totalFrames;
      let textRun: typeof m | undefined;
      let motionRun: typeof m | undefined;
      let undrawnRun: typeof m | undefined;
      const wallsNote = (runs: { wallSec: number }[]) =>
        runs.length > 1 ? `; median of ${runs.map((t) => t.wallSec.toFixed(1)).join(', ')} s` : '';
      if (i === 0) {
        // bench-60s against the text-heavy movie (whose first render also loads its fonts, as a
        // fresh worker would).
        // The motion-graphics movie in the same alternation.
        const [runs, others] = await alternated(m, render, reps, async () => {
          process.stderr.write('rendering bench-60s-text...\n');
          const text = await measureRender(textMovie, config, 1);
          process.stderr.write('rendering bench-60s-motion...\n');
          const motion = await measureRender(withKeyedClip(motionMovie, media.keyed), mediaConfig, 1);
          // Everything of that render but drawing its layers: what this machine leaves for drawing.
          process.stderr.write('rendering bench-60s-motion with no layer drawn...\n');
          const undrawn = await measureRender(withKeyedClip(motionMovie, media.keyed), mediaConfig, 1, false);
          return { text, motion, undrawn };
        });
        const texts = others.map((o) => o.text);
        const motions = others.map((o) => o.motion);
        const undrawns = others.map((o) => o.undrawn);
        m = medianRun(runs);
        textRun = medianRun(texts);
        motionRun = medianRun(motions);
        undrawnRun = medianRun(undrawns);
        note = wallsNote(runs);
        textWalls = wallsNote(texts);
        motionWalls = wallsNote(motions);
        undrawnWalls = wallsNote(undrawns);
      }
      if (i === 1) {
        // The clip run against its floor.
        const [runs, floors] = await alternated(m, render, reps, async () => {
          process.stderr.write('measuring the clip floor...\n');
          return measureClipFloor();
        });
        m = medianRun(runs);
        clipFloor = medianRun(floors);
        note = wallsNote(runs);
      }
      ({ width, height, fps } = m.value);
      const row = renderRow(name, m, note);
      if (i === 0) serialRow = row;
      if (i === 1) videoRow = row;
      if (textRun) textRow = renderRow('bench-60s-text (text-heavy, no voice)', textRun, textWalls);
      if (motionRun) motionRow = renderRow('bench-60s-motion (shapes, effects, keyed clip)', motionRun, motionWalls);
      if (undrawnRun) undrawnRow = renderRow('bench-60s-motion, no layer drawn', undrawnRun, undrawnWalls);
    }
    process.stderr.write('measuring the encode floor...\n');
    const floor = await measure(() =>
      runFfmpeg(config.ffmpegPath, [
        ...QUIET,
        '-y',
        '-f',
        'lavfi',
        '-i',
        `color=c=0x1a2238:s=${width}x${height}:r=${fps},format=yuv420p`,
        '-frames:v',
        String(frames),
        ...codecArgs(codec, fps, 'balanced', availableParallelism()),
        '-pix_fmt',
        'yuv420p',
        '-f',
        'mp4',
        join(dir, 'floor.mp4'),
      ]),
    );
    /** A row of ffmpeg alone doing `frames` frames: the same columns as a render's. */
    const ffmpegRow = (name: string, m: Awaited<ReturnType<typeof measure>>) => [
      name,
      m.wallSec.toFixed(2),
      (frames / fps / m.wallSec).toFixed(2),
      (frames / m.wallSec).toFixed(1),
      m.cpuSec.toFixed(1),
      m.peakMb.toFixed(0),
      m.peakPssMb.toFixed(0),
      '',
    ];
    rows.push(ffmpegRow(`encode floor (ffmpeg alone, ${frames} frames)`, floor));
    if (!clipFloor) throw new Error('the clip run did not run');
    rows.push(ffmpegRow('clip floor (ffmpeg decoding the clip, encoding it)', clipFloor));
    const header = ['run', 'wall s', 'x realtime', 'fps', 'CPU s', 'peak RSS MB', 'peak PSS MB', 'notes'];
    process.stdout.write(`\n${textTable(header, rows)}\n`);
    media.close();
    if (!serialRow || !videoRow || !textRow || !motionRow || !undrawnRow) throw new Error('a run did not run');
    const serial = Number(serialRow[1]);
    const serialCpu = Number(serialRow[4]);
    const video = videoRow;
    const textRatio = Number(textRow[2]) / Number(serialRow[2]);
    process.stdout.write(
      `\ntext-heavy: bench-60s-text ${textRow[2]}x realtime, bench-60s ${serialRow[2]}x: ` +
        `${textRatio.toFixed(2)}x its realtime factor (target >= 0.9: ${textRatio >= 0.9 ? 'met' : 'MISSED'}); ` +
        `peak RSS ${textRow[5]} MB / PSS ${textRow[6]} MB beside bench-60s's ${serialRow[5]} / ${serialRow[6]} MB\n`,
    );
    const motionRatio = Number(motionRow[2]) / Number(serialRow[2]);
    process.stdout.write(
      `\nmotion graphics: bench-60s-motion ${motionRow[2]}x realtime, bench-60s ${serialRow[2]}x: ` +
        `${motionRatio.toFixed(2)}x its realtime factor (target >= 0.7: ${motionRatio >= 0.7 ? 'met' : 'MISSED'}); ` +
        `peak RSS ${motionRow[5]} MB / PSS ${motionRow[6]} MB beside bench-60s's ${serialRow[5]} / ${serialRow[6]} MB; ` +
        `with no layer drawn (the same rectangles cleared, converted, read back and encoded) it would be ` +
        `${(Number(undrawnRow[2]) / Number(serialRow[2])).toFixed(2)}x: the most this machine leaves for drawing\n`,
    );
    process.stdout.write(
      `\nover a clip: ${video[2]}x realtime (target >= 3: ${Number(video[2]) >= 3 ? 'met' : 'MISSED'}), ` +
        `the clip floor is ${(frames / fps / clipFloor.wallSec).toFixed(2)}x (${(Number(video[4]) / clipFloor.cpuSec).toFixed(2)}x its CPU); ` +
        `peak RSS ${video[5]} MB / PSS ${video[6]} MB beside the image-only movie's ${serialRow[5]} / ${serialRow[6]} MB\n`,
    );
    process.stdout.write(
      `\nserial wall / encode floor = ${(serial / floor.wallSec).toFixed(2)} (target <= 1.3); ` +
        `CPU ratio ${(serialCpu / floor.cpuSec).toFixed(2)}; load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}; ` +
        `${width}x${height}@${fps}, ${codec}; measured ${new Date().toISOString()}\n`,
    );
    if (!values.quick) await qualityPerByte(bench60, config, codec, dir);
    return 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `--against DIR`: the three movies rendered by this checkout and DIR's, alternately (against.ts). */
async function against(baseline: string, config: WorkerConfig, [bench60, text, motion]: Movie[], reps: number) {
  const dir = mkdtempSync(join(tmpdir(), 'fw-bench-against-'));
  const media = await mediaSources(config.ffmpegPath, dir);
  try {
    const here = fileURLToPath(new URL('..', import.meta.url));
    await renderAgainst(
      here,
      baseline,
      [
        { name: 'bench-60s', movie: bench60! },
        { name: 'bench-60s-text', movie: text! },
        { name: 'bench-60s-motion', movie: withKeyedClip(motion!, media.keyed) },
      ],
      dir,
      reps,
    );
    return 0;
  } finally {
    media.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Bytes of the first video stream's packets (the file's size less audio and container). */
async function videoBytes(ffprobe: string, file: string): Promise<number> {
  const { stdout } = await execFileP(ffprobe, [
    ...['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=size', '-of', 'csv=p=0', file],
  ]);
  return stdout.split('\n').reduce((sum, line) => sum + (Number(line) || 0), 0);
}

/** Mean SSIM (all planes) of `file` against `reference`, frame by frame. */
async function ssim(ffmpeg: string, file: string, reference: string): Promise<number> {
  const { stderr } = await execFileP(
    ffmpeg,
    ['-hide_banner', '-nostdin', '-i', file, '-i', reference, '-lavfi', '[0:v][1:v]ssim', '-f', 'null', '-'],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const all = /All:([0-9.]+)/.exec(stderr.slice(stderr.lastIndexOf('SSIM')))?.[1];
  if (!all) throw new Error(`no SSIM in ffmpeg's output: ${stderr.slice(-500)}`);
  return Number(all);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function qualityPerByte(movie: Movie, config: WorkerConfig, codec: VideoCodec, dir: string): Promise<void> {
  const ffprobe = process.env.FFPROBE_PATH ?? 'ffprobe';
  const render = async (quality: EncodeQuality, name: string) => {
    process.stderr.write(`rendering quality ${quality}...\n`);
    const output = join(dir, `${name}.mp4`);
    const m = await measure(() => renderMovie({ movie, output, config, codec, quality }));
    return { output, wallSec: m.wallSec, cpuSec: m.cpuSec };
  };
  const reference = (await render('lossless', 'lossless')).output;
  // fast and balanced alternated, three times each: the speed ratio is the point, and neighbours vary.
  const walls: Record<'fast' | 'balanced', number[]> = { fast: [], balanced: [] };
  const cpus: Record<'fast' | 'balanced', number[]> = { fast: [], balanced: [] };
  let outputs: Partial<Record<EncodeQuality, string>> = {};
  for (let round = 0; round < 3; round++) {
    for (const q of ['fast', 'balanced'] as const) {
      const r = await render(q, q);
      walls[q].push(r.wallSec);
      cpus[q].push(r.cpuSec);
      outputs = { ...outputs, [q]: r.output };
    }
  }
  const small = await render('small', 'small');
  const encodeReference = async (preset: string) => {
    process.stderr.write(`x264 ${preset} on the lossless frames...\n`);
    const output = join(dir, `x264-${preset}.mp4`);
    const m = await measure(() =>
      runFfmpeg(config.ffmpegPath, [
        ...[...QUIET, '-y', '-i', reference, '-an', '-c:v', 'libx264', '-preset', preset, '-crf', '20', output],
      ]),
    );
    return { output, wallSec: m.wallSec };
  };
  const veryfast = await encodeReference('veryfast');
  const ultrafast = await encodeReference('ultrafast');
  process.stderr.write('measuring bytes and SSIM...\n');
  const rows: { name: string; file: string; wall: string }[] = [
    { name: 'quality fast (render)', file: outputs.fast!, wall: median(walls.fast).toFixed(2) },
    {
      name: 'quality balanced (render, the default)',
      file: outputs.balanced!,
      wall: median(walls.balanced).toFixed(2),
    },
    { name: 'quality small (render)', file: small.output, wall: small.wallSec.toFixed(2) },
    { name: 'x264 veryfast CRF 20 (encode only)', file: veryfast.output, wall: veryfast.wallSec.toFixed(2) },
    { name: 'x264 ultrafast CRF 20 (encode only)', file: ultrafast.output, wall: ultrafast.wallSec.toFixed(2) },
  ];
  const measured = [];
  for (const r of rows) {
    measured.push({
      ...r,
      bytes: await videoBytes(ffprobe, r.file),
      ssim: await ssim(config.ffmpegPath, r.file, reference),
    });
  }
  const header = ['quality per byte (video stream)', 'bytes', 'SSIM', 'wall s'];
  const cells = measured.map((m) => [m.name, m.bytes.toLocaleString('en'), m.ssim.toFixed(6), m.wall]);
  process.stdout.write(`\n${textTable(header, cells)}\n`);
  const [fast, balanced, , vf] = measured as [
    (typeof measured)[0],
    (typeof measured)[0],
    unknown,
    (typeof measured)[0],
  ];
  const bytesRatio = balanced.bytes / vf.bytes;
  const speed = median(walls.fast) / median(walls.balanced);
  const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
  process.stdout.write(
    `\nbalanced: ${bytesRatio.toFixed(2)}x veryfast's bytes (target <= 1.25: ${met(bytesRatio <= 1.25)}), ` +
      `SSIM ${balanced.ssim.toFixed(6)} vs ${vf.ssim.toFixed(6)} (target >=: ${met(balanced.ssim >= vf.ssim)}), ` +
      `${speed.toFixed(2)}x the speed of fast (target >= 0.9: ${met(speed >= 0.9)}; walls fast ${walls.fast
        .map((w) => w.toFixed(1))
        .join(', ')} s, balanced ${walls.balanced.map((w) => w.toFixed(1)).join(', ')} s); ` +
      `CPU s (median) fast ${median(cpus.fast).toFixed(1)}, balanced ${median(cpus.balanced).toFixed(1)}; ` +
      `fast is ${(fast.bytes / balanced.bytes).toFixed(1)}x balanced's bytes; ${codec}\n`,
  );
}
