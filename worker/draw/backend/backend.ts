/**
 * The drawing backend: what the frame graph (gpu/frame-renderer.ts) draws on. A runner acquires
 * it once per render, for the processes that draw (the segment and still children start with its
 * environment), and releases it when the render ends; a drawing process creates its GL context
 * through it. The one implementation today is an X display with GLX for headless-gl: the caller's
 * `DISPLAY`, or an Xvfb of the render's own (xvfb.ts). Another backend (EGL without X) plugs in
 * here, with a file of its own beside xvfb.ts.
 */
import createContext from 'gl';
import type { Logger } from '../../../lib/logger.ts';
import { ensureDisplay } from './xvfb.ts';

/** What a render draws on, held from acquire to release. */
export interface DrawingSurface {
  /** The environment the drawing processes start with (DISPLAY, for GLX). */
  env: NodeJS.ProcessEnv;
  /** Rejects when what the surface holds dies before release (our Xvfb): a render never waits on it. */
  died: Promise<never>;
  release(): Promise<void>;
}

/** The surface a render's drawing processes use, from the worker's environment (`env`). */
export async function acquireDrawing(env: NodeJS.ProcessEnv, logger?: Logger): Promise<DrawingSurface> {
  const display = await ensureDisplay(env, logger);
  return { env: { ...env, DISPLAY: display.name }, died: display.died, release: () => display.stop() };
}

/**
 * A WebGL 1 context for the frame renderer, in a process started with a surface's `env`; null
 * when the backend cannot give one. 1x1 and without a drawing buffer of its own: every frame is
 * drawn into render targets and read back from them.
 */
export function createGlContext(): ReturnType<typeof createContext> {
  return createContext(1, 1, { preserveDrawingBuffer: false, antialias: false, alpha: false });
}
