/**
 * ANGLE drawing through EGL with no X server. headless-gl 9 bundles ANGLE (Chrome 131's), and
 * patches/gl+9.0.0-rc.10+angle-platform.patch lets a process choose ANGLE's platform with
 * `HEADLESS_GL_ANGLE_PLATFORM`; `egl` is OpenGL ES on the system's EGL, on Mesa's surfaceless
 * platform. libglvnd's libEGL.so.1 picks the vendor: the NVIDIA driver's where the container
 * runtime mounted it (the `graphics` capability), else Mesa, whose llvmpipe draws on the CPU.
 *
 * ANGLE's Vulkan platform (`vulkan` in the patch) is not offered: on this project's machines
 * Mesa's lavapipe (22.3) fails ANGLE's Vulkan initialisation, so it could not be tested or measured.
 *
 * Nothing runs beside the render (no display server to start, nothing to die), so acquiring is
 * only learning which GL draws: a 1x1 context made once per process (about 40 ms) whose vendor
 * and renderer strings the runner logs and reports.
 */
import createContext from 'gl';
import { AppError } from '../../../lib/errors.ts';
import type { Logger } from '../../../lib/logger.ts';
import { describeRenderer, type GlRenderer, gpuDrawingUnavailable, missingGpuPieces } from './renderer.ts';
import type { DrawingBackend, GlContext } from './surface.ts';

/** What the drawing processes' environment carries: headless-gl (patched) reads it when it opens its display. */
const ANGLE_ON_EGL = { HEADLESS_GL_ANGLE_PLATFORM: 'egl' } as const;

/**
 * Every context this process made, kept from the garbage collector until the process ends.
 * headless-gl's context is a node::ObjectWrap, whose destructor (Node 24's node_object_wrap.h)
 * removes an environment cleanup hook found through the isolate's current context: when V8
 * collects one in a GC that runs with no context entered, Node aborts the process ("Assertion
 * failed: (env) != nullptr" in RemoveEnvironmentCleanupHook: seen here in 3 of the worker test
 * files, at random; DataDog/pprof-nodejs#385 describes the same for its own ObjectWrap). Kept here, a
 * context is deleted by that cleanup hook at exit instead, where the environment exists. A
 * destroyed context holds a few hundred bytes; a process makes one a frame renderer.
 */
const made: GlContext[] = [];

function newContext(): GlContext {
  // A process started with a surface's environment has the variable; one that was not draws on EGL too.
  process.env.HEADLESS_GL_ANGLE_PLATFORM ??= ANGLE_ON_EGL.HEADLESS_GL_ANGLE_PLATFORM;
  const gl = createContext(1, 1, {
    preserveDrawingBuffer: false,
    antialias: false,
    alpha: false,
    createWebGL2Context: true,
  });
  if (gl) made.push(gl);
  return gl;
}

/** This process's GL, once known (ANGLE opens one display a process). */
let probed: GlRenderer | undefined;

/** The GL this process draws with, from a context made and destroyed at once. */
function probeRenderer(): GlRenderer {
  if (probed) return probed;
  const gl = newContext();
  if (!gl) {
    throw new AppError(
      'RENDER_FAILED',
      "No GL context through ANGLE on EGL: is libEGL.so.1 (libglvnd's libegl1) installed with a vendor (the GPU driver's, or Mesa's libegl-mesa0)? ANGLE's own error is on stderr.",
    );
  }
  probed = describeRenderer(gl);
  gl.getExtension('STACKGL_destroy_context')?.destroy();
  return probed;
}

export const eglBackend: DrawingBackend = {
  name: 'ANGLE on EGL',
  async acquire(env: NodeJS.ProcessEnv, logger?: Logger) {
    const renderer = probeRenderer();
    logger?.info(renderer, 'drawing with');
    if (env.DRAWING_DEVICE === 'gpu' && renderer.software) {
      throw gpuDrawingUnavailable(renderer, missingGpuPieces(env));
    }
    return {
      env: { ...env, ...ANGLE_ON_EGL },
      renderer,
      died: new Promise<never>(() => {}),
      release: async () => {},
    };
  },
  createContext: newContext,
};
