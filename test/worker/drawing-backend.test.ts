/**
 * The drawing backend (worker/draw/backend/): ANGLE through EGL with no X server, the path GPU
 * nodes run, here on Mesa's llvmpipe. It says which GL draws (the runner's `onDrawing`, a job's
 * `drawing` event), and a worker given a GPU that finds a software renderer fails at once with
 * GPU_DRAWING_UNAVAILABLE, naming what the container lacks, before anything is prepared or
 * written. This machine has no GPU: its EGL is software-only, which is what forces the failure.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AppError } from '../../lib/errors.ts';
import { createLogger } from '../../lib/logger.ts';
import { validateMovie } from '../../movie/index.ts';
import { drawingBackend } from '../../worker/draw/backend/backend.ts';
import { type GlRenderer, type GpuProbe, missingGpuPieces } from '../../worker/draw/backend/renderer.ts';
import type { JobProgress } from '../../worker/job-protocol.ts';
import { runJob } from '../../worker/run/job.ts';
import type { WorkerConfig } from '../../worker/run/prepare-render.ts';
import { renderMovie } from '../../worker/run/render-movie.ts';
import { silentMovie } from './fixtures.ts';
import { frameRgb, near, pixel } from './media.ts';

const dir = mkdtempSync(join(tmpdir(), 'fw-drawing-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The environment of a worker on this machine: no X display anywhere. */
const noX = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => {
  const { DISPLAY: _display, ...env } = process.env;
  return { ...env, ...extra };
};
const config = (env: NodeJS.ProcessEnv): WorkerConfig => ({ ffmpegPath: 'ffmpeg', allowPrivateUrls: false, env });
const quiet = createLogger({ level: 'silent' });

describe('the drawing backend: ANGLE on EGL', () => {
  it('draws with no X display, and says which GL: Mesa llvmpipe through ANGLE, a software renderer', async () => {
    const surface = await drawingBackend().acquire(noX());
    try {
      assert.equal(surface.env.DISPLAY, undefined, 'no X display is given to the drawing processes');
      assert.equal(surface.env.HEADLESS_GL_ANGLE_PLATFORM, 'egl');
      assert.match(surface.renderer.renderer, /^ANGLE \(.*llvmpipe.*OpenGL ES 3/);
      assert.equal(surface.renderer.software, true);
    } finally {
      await surface.release();
    }
  });

  it('a render reports its renderer before its first frame, and its frames are drawn (no X)', async () => {
    const output = join(dir, 'drawn.mp4');
    const seen: string[] = [];
    let renderer: GlRenderer | undefined;
    await renderMovie({
      movie: validMovie(await silentMovie()),
      output,
      config: config(noX()),
      onDrawing: (r) => {
        renderer = r;
        seen.push('drawing');
      },
      onProgress: (e) => {
        if (e.phase === 'rendering' && e.progress > 20 && seen.at(-1) !== 'frames') seen.push('frames');
      },
    });
    assert.match(renderer?.renderer ?? '', /llvmpipe/);
    assert.deepEqual(seen, ['drawing', 'frames'], 'the renderer is known before frames are encoded');
    await assertDrawn(output);
  });

  it('a still (png) reports its renderer too', async () => {
    let renderer: GlRenderer | undefined;
    await renderMovie({
      movie: validMovie(await silentMovie()),
      format: 'png',
      output: join(dir, 'still.png'),
      config: config(noX()),
      onDrawing: (r) => {
        renderer = r;
      },
    });
    assert.match(renderer?.renderer ?? '', /llvmpipe/);
  });

  it('a job tells its executor which GL draws, as an event of its call', async () => {
    const events: JobProgress[] = [];
    const outcome = await runJob(
      {
        type: 'job',
        renderId: 'rnd_drawing',
        movie: await silentMovie(),
        format: 'mp4',
        output: join(dir, 'job.mp4'),
        watermark: false,
        draft: false,
      },
      config(noX()),
      new AbortController().signal,
      quiet,
      async (m) => {
        events.push(m);
      },
    );
    assert.equal(outcome.type, 'done', JSON.stringify(outcome));
    const drawing = events.find((e) => e.type === 'drawing');
    assert.ok(
      drawing && drawing.type === 'drawing',
      `a drawing event among ${JSON.stringify(events.map((e) => e.type))}`,
    );
    assert.match(drawing.renderer.renderer, /llvmpipe/);
    assert.equal(drawing.renderer.software, true);
  });
});

describe('a worker given a GPU that finds a software renderer', () => {
  it('fails at once with GPU_DRAWING_UNAVAILABLE, naming what is missing, and writes nothing', async () => {
    const output = join(dir, 'gpu.mp4');
    const scratch = mkdtempSync(join(dir, 'scratch-'));
    const err = await renderMovie({
      movie: validMovie(await silentMovie()),
      output,
      tmpRoot: scratch,
      config: config(noX({ DRAWING_DEVICE: 'gpu', NVIDIA_DRIVER_CAPABILITIES: 'compute,utility,video' })),
    }).then(
      () => assert.fail('a software renderer must not draw for a GPU worker'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof AppError, String(err));
    assert.equal(err.code, 'GPU_DRAWING_UNAVAILABLE');
    assert.match(err.message, /llvmpipe/, 'it names the renderer it found');
    assert.match(err.message, /no GPU device in the container/);
    assert.match(err.message, /`graphics` capability \(NVIDIA_DRIVER_CAPABILITIES=compute,utility,video\)/);
    assert.match(err.message, /libEGL_nvidia\.so\.0 is not in the container/);
    assert.match(err.message, /worker\.allowSoftwareDrawing/, 'and how to draw on the CPU anyway');
    assert.equal(existsSync(output), false, 'no output');
    assert.deepEqual(readdirSync(scratch), [], 'no scratch files left');
  });

  it('draws on the CPU when software drawing is allowed (DRAWING_DEVICE=any)', async () => {
    const output = join(dir, 'any.mp4');
    await renderMovie({
      movie: validMovie(await silentMovie()),
      output,
      config: config(noX({ DRAWING_DEVICE: 'any' })),
    });
    await assertDrawn(output);
  });

  it('names each missing piece, and none on a node where everything is mounted', () => {
    const node = (files: Record<string, string[]>): GpuProbe => ({
      exists: (path) => (files[dirname(path)] ?? []).includes(basename(path)),
      list: (d) => files[d] ?? [],
    });
    const complete = {
      '/dev': ['nvidia0', 'nvidiactl'],
      '/usr/lib/x86_64-linux-gnu': ['libEGL_nvidia.so.0', 'libGLX_nvidia.so.0'],
      '/usr/share/glvnd/egl_vendor.d': ['10_nvidia.json', '50_mesa.json'],
    };
    const env = { NVIDIA_DRIVER_CAPABILITIES: 'compute,utility,video,graphics' };
    assert.deepEqual(missingGpuPieces(env, node(complete)), []);
    assert.deepEqual(
      missingGpuPieces({ NVIDIA_DRIVER_CAPABILITIES: 'all' }, node(complete)),
      [],
      '`all` includes graphics',
    );
    const without = (key: keyof typeof complete) => missingGpuPieces(env, node({ ...complete, [key]: [] }));
    assert.match(without('/dev').join('\n'), /^no GPU device/);
    assert.match(
      without('/usr/lib/x86_64-linux-gnu').join('\n'),
      /^the driver's libEGL_nvidia\.so\.0 is not in the container/,
    );
    assert.match(without('/usr/share/glvnd/egl_vendor.d').join('\n'), /^no NVIDIA EGL vendor file/);
    assert.match(missingGpuPieces({}, node(complete)).join('\n'), /`graphics` capability/);
    // A driver mounted where LD_LIBRARY_PATH points is found there.
    const elsewhere = node({
      ...complete,
      '/usr/lib/x86_64-linux-gnu': [],
      '/usr/local/nvidia/lib64': ['libEGL_nvidia.so.0'],
    });
    assert.deepEqual(missingGpuPieces({ ...env, LD_LIBRARY_PATH: '/usr/local/nvidia/lib64' }, elsewhere), []);
  });
});

/** silentMovie's frame: its red 64x64 picture at (20, 20) over the #204080 background, read back decoded. */
async function assertDrawn(output: string): Promise<void> {
  const rgb = await frameRgb(output, 5);
  const red = pixel(rgb, 320, 52, 52);
  const background = pixel(rgb, 320, 8, 170);
  assert.ok(near(red, [255, 0, 0], 12), `the picture is drawn: ${red}`);
  assert.ok(near(background, [0x20, 0x40, 0x80], 12), `the background is drawn: ${background}`);
}

function validMovie(doc: unknown) {
  const r = validateMovie(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.findings));
  return r.value;
}
