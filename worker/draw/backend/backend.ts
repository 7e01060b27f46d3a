/**
 * The drawing backend: what the frame graph (gpu/frame-renderer.ts) draws on. A runner acquires
 * it once per render, for the processes that draw (the segment and still children start with its
 * environment), and releases it when the render ends; a drawing process creates its GL context
 * through it. The one implementation today is an X display with GLX for headless-gl (xvfb.ts: the
 * caller's `DISPLAY`, or an Xvfb of the render's own). Another (EGL without X) is a
 * `DrawingBackend` in a file of its own beside xvfb.ts, chosen in `drawingBackend` below.
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

/** A GL context for the frame renderer; null when the backend cannot give one. */
type GlContext = ReturnType<typeof createContext>;

export interface DrawingBackend {
  /** Named in logs and errors. */
  readonly name: string;
  /** The surface a render's drawing processes use, from the worker's environment. */
  acquire(env: NodeJS.ProcessEnv, logger?: Logger): Promise<DrawingSurface>;
  /**
   * A WebGL 1 context in a process started with a surface's `env`. 1x1 and without a drawing
   * buffer of its own: every frame is drawn into render targets and read back from them.
   */
  createContext(): GlContext;
}

/** headless-gl on an X display, through GLX (Mesa's llvmpipe where there is no GPU driver). */
const xGlx: DrawingBackend = {
  name: 'X with GLX',
  async acquire(env, logger) {
    const display = await ensureDisplay(env, logger);
    return { env: { ...env, DISPLAY: display.name }, died: display.died, release: () => display.stop() };
  },
  createContext: () => createContext(1, 1, { preserveDrawingBuffer: false, antialias: false, alpha: false }),
};

/** The backend this worker draws with. */
export function drawingBackend(): DrawingBackend {
  return xGlx;
}
