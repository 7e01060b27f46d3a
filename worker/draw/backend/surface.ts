/**
 * What a drawing backend gives (backend.ts chooses the one a worker uses): a surface a render's
 * drawing processes start with, and GL contexts in those processes.
 */
import type createContext from 'gl';
import type { Logger } from '../../../lib/logger.ts';
import type { GlRenderer } from './renderer.ts';

/** What a render draws on, held from acquire to release. */
export interface DrawingSurface {
  /** The environment the drawing processes start with (which ANGLE platform headless-gl opens). */
  env: NodeJS.ProcessEnv;
  /** Rejects when what the surface holds dies before release: a render never waits on it. */
  died: Promise<never>;
  /** The GL that draws: its vendor and renderer strings, and whether it is a software renderer. */
  renderer: GlRenderer;
  release(): Promise<void>;
}

/** A GL context for the frame renderer; null when the backend cannot give one. */
export type GlContext = ReturnType<typeof createContext>;

export interface DrawingBackend {
  /** Named in logs and errors. */
  readonly name: string;
  /**
   * The surface a render's drawing processes use, from the worker's environment. Fails with
   * GPU_DRAWING_UNAVAILABLE when the worker was given a GPU (DRAWING_DEVICE=gpu) and finds a
   * software renderer.
   */
  acquire(env: NodeJS.ProcessEnv, logger?: Logger): Promise<DrawingSurface>;
  /**
   * A WebGL 2 context in a process started with a surface's `env`. 1x1 and without a drawing
   * buffer of its own: every frame is drawn into render targets and read back from them.
   */
  createContext(): GlContext;
}
