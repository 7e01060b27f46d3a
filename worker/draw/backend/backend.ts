/**
 * The drawing backend: what the frame graph (gpu/frame-renderer.ts) draws on. A runner acquires
 * it once per render, for the processes that draw (the segment and still children start with its
 * environment), and releases it when the render ends; a drawing process creates its GL context
 * through it.
 *
 * There is one: ANGLE (bundled by headless-gl 9) drawing through EGL, with no X server (egl.ts).
 * On a GPU node EGL is the GPU driver's, through libglvnd; everywhere else, CI included, it is
 * Mesa's llvmpipe, through the same ANGLE code. Acquiring it learns which GL draws (renderer.ts):
 * the runner logs it and reports it, and a worker that was given a GPU refuses to draw on a
 * software renderer.
 */
import { eglBackend } from './egl.ts';
import type { DrawingBackend } from './surface.ts';

/** The backend this worker draws with. */
export function drawingBackend(): DrawingBackend {
  return eglBackend;
}
