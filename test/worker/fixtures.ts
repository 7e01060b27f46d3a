import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import sharp from 'sharp';
import { drawingBackend } from '../../worker/draw/backend/backend.ts';
import type { DrawingSurface } from '../../worker/draw/backend/surface.ts';

/**
 * For a file of tests that draw with headless-gl: the drawing backend (worker/draw/backend/backend.ts:
 * ANGLE on EGL) acquired for this process before them, and a scratch directory; both gone after them.
 */
export function glTestEnvironment(prefix: string): {
  dir: string;
  /** An RGBA texture file in `dir` of w x h texels, `rgba` of each, as a layer's TextureRef. */
  texture(
    name: string,
    w: number,
    h: number,
    rgba: (x: number, y: number) => [number, number, number, number],
  ): { file: string; width: number; height: number };
} {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  let drawing: DrawingSurface | undefined;
  before(async () => {
    drawing = await drawingBackend().acquire(process.env);
    Object.assign(process.env, drawing.env);
  });
  after(async () => {
    await drawing?.release();
    rmSync(dir, { recursive: true, force: true });
  });
  const texture = (
    name: string,
    w: number,
    h: number,
    rgba: (x: number, y: number) => [number, number, number, number],
  ) => {
    const bytes = new Uint8Array(w * h * 4);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) bytes.set(rgba(x, y), (y * w + x) * 4);
    const file = join(dir, name);
    writeFileSync(file, bytes);
    return { file, width: w, height: h };
  };
  return { dir, texture };
}

/** A solid PNG as a data: URI. */
async function solidPng(color: string, size = 32): Promise<string> {
  const bytes = await sharp({ create: { width: size, height: size, channels: 4, background: color } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${bytes.toString('base64')}`;
}

export async function solidPngBytes(color: string, size = 32): Promise<Buffer> {
  return sharp({ create: { width: size, height: size, channels: 4, background: color } })
    .png()
    .toBuffer();
}

/**
 * Two one-second scenes at 320x180, 25 fps: a red image and white text on blue, then a blue
 * image sliding in from the left on green. Positions are chosen for pixel checks.
 */
export async function silentMovie(): Promise<Record<string, unknown>> {
  return {
    schema: 'v1',
    width: 320,
    height: 180,
    fps: 25,
    scenes: [
      {
        id: 'first',
        duration: 1,
        background: '#204080',
        elements: [
          {
            id: 'red',
            type: 'image',
            src: await solidPng('#ff0000'),
            width: 64,
            height: 64,
            position: { x: 20, y: 20 },
          },
          {
            id: 'hi',
            type: 'text',
            text: 'HI',
            fontSize: 40,
            fontWeight: 900,
            color: '#ffffff',
            position: { x: 200, y: 100 },
          },
        ],
      },
      {
        id: 'second',
        duration: 1,
        background: '#008000',
        elements: [
          {
            id: 'blue',
            type: 'image',
            src: await solidPng('#0000ff'),
            width: 64,
            height: 64,
            position: { x: 128, y: 58 },
            animation: { preset: 'slide-in-left', duration: 0.5 },
          },
        ],
      },
    ],
  };
}

/**
 * A 25-second movie at 160x90, 25 fps, whose changes cross the encoder chunk borders (every 10 s,
 * 250 frames): a title zooming in over the first border, a crossfade over the second scene's
 * start, a slide over the 20 s border. For checks that a render cut into segments is the same
 * movie as the render in one piece.
 */
export async function longMovie(): Promise<Record<string, unknown>> {
  const text = (id: string, t: string, animation: Record<string, unknown>, start = 0) => ({
    id,
    type: 'text',
    text: t,
    fontSize: 20,
    color: '#ffffff',
    position: { x: 10, y: 30 },
    start,
    animation,
  });
  return {
    schema: 'v1',
    width: 160,
    height: 90,
    fps: 25,
    scenes: [
      {
        id: 'one',
        duration: 11,
        background: '#203040',
        elements: [
          {
            id: 'img',
            type: 'image',
            src: await solidPng('#ff8000'),
            width: 30,
            height: 30,
            position: { x: 120, y: 50 },
          },
          text('zoom', 'Zoom', { preset: 'zoom-in', duration: 2 }, 8.8),
        ],
      },
      {
        id: 'two',
        duration: 10,
        background: '#604020',
        transition: { type: 'crossfade', duration: 1 },
        elements: [text('slide', 'Slide', { preset: 'slide-in-right', duration: 1.5 }, 9.5)],
      },
      {
        id: 'three',
        duration: 5,
        background: '#103010',
        elements: [text('end', 'End', { preset: 'fade-in', duration: 1 })],
      },
    ],
  };
}
