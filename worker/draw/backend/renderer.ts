/**
 * Which GL draws, and what to say when a worker that was given a GPU finds a software renderer.
 *
 * headless-gl's `getParameter(RENDERER)` answers "ANGLE", as a browser does; the driver under
 * ANGLE is in `_getParameterDirect`: "ANGLE (NVIDIA Corporation, NVIDIA H100 .../PCIe/SSE2,
 * OpenGL ES 3.2 NVIDIA 550.54)" on a GPU, "ANGLE (Mesa/X.org, llvmpipe (LLVM 15.0.6 256 bits),
 * OpenGL ES 3.2)" on the CPU.
 */
import { existsSync, readdirSync } from 'node:fs';
import { AppError } from '../../../lib/errors.ts';

export interface GlRenderer {
  /** The driver's vendor string, through ANGLE. */
  vendor: string;
  /** The driver's renderer string, through ANGLE. */
  renderer: string;
  /** A CPU rasteriser (llvmpipe, lavapipe, softpipe, SwiftShader), not a GPU. */
  software: boolean;
}

/** The renderers that draw on the CPU, as their drivers name themselves. */
const SOFTWARE = /llvmpipe|lavapipe|softpipe|swiftshader|software rasterizer/i;

/** The GL's strings, read from a context headless-gl made. */
export function describeRenderer(gl: {
  _getParameterDirect(pname: number): unknown;
  RENDERER: number;
  VENDOR: number;
}): GlRenderer {
  const renderer = String(gl._getParameterDirect(gl.RENDERER) ?? 'unknown');
  return {
    vendor: String(gl._getParameterDirect(gl.VENDOR) ?? 'unknown'),
    renderer,
    software: SOFTWARE.test(renderer),
  };
}

/** Where libglvnd looks for EGL vendor files (the worker image carries NVIDIA's). */
const EGL_VENDOR_DIRS = ['/usr/share/glvnd/egl_vendor.d', '/etc/glvnd/egl_vendor.d'];
/** Where the NVIDIA container runtime mounts the driver's libraries. */
const LIBRARY_DIRS = [
  '/usr/lib/x86_64-linux-gnu',
  '/usr/lib/aarch64-linux-gnu',
  '/usr/lib64',
  '/usr/lib',
  '/lib/x86_64-linux-gnu',
];

/** What the filesystem shows of a GPU's drawing pieces; a seam for the tests. */
export interface GpuProbe {
  exists(path: string): boolean;
  list(dir: string): string[];
}

const realFs: GpuProbe = {
  exists: existsSync,
  list: (dir) => {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  },
};

/**
 * The pieces of drawing on an NVIDIA GPU this container lacks, each said as what to fix: the
 * device, the `graphics` driver capability, the driver's EGL library that the runtime mounts with
 * it, and the vendor file that points libglvnd at that library.
 */
export function missingGpuPieces(env: NodeJS.ProcessEnv, fs: GpuProbe = realFs): string[] {
  const missing: string[] = [];
  if (!fs.exists('/dev/nvidiactl') && !fs.list('/dev').some((d) => /^nvidia\d+$/.test(d))) {
    missing.push(
      "no GPU device in the container (/dev/nvidia0 and /dev/nvidiactl are absent: does the pod request nvidia.com/gpu on a node whose runtime is NVIDIA's?)",
    );
  }
  const caps = (env.NVIDIA_DRIVER_CAPABILITIES ?? '').split(',').map((c) => c.trim());
  if (!caps.includes('graphics') && !caps.includes('all')) {
    missing.push(
      `the container runtime was not asked for the driver's \`graphics\` capability (NVIDIA_DRIVER_CAPABILITIES=${env.NVIDIA_DRIVER_CAPABILITIES ?? ''}), so it mounts no EGL library of the driver`,
    );
  }
  const library = 'libEGL_nvidia.so.0';
  const libDirs = [...(env.LD_LIBRARY_PATH ?? '').split(':').filter(Boolean), ...LIBRARY_DIRS];
  if (!libDirs.some((d) => fs.list(d).includes(library))) {
    missing.push(
      `the driver's ${library} is not in the container (${LIBRARY_DIRS[0]}): the runtime mounts it with the \`graphics\` capability, on a node whose NVIDIA container toolkit is set up for it`,
    );
  }
  if (!EGL_VENDOR_DIRS.some((d) => fs.list(d).some((f) => /nvidia/i.test(f)))) {
    missing.push(
      `no NVIDIA EGL vendor file in ${EGL_VENDOR_DIRS.join(' or ')} (the worker image carries one; a custom image needs it)`,
    );
  }
  return missing;
}

/** The error of a worker given a GPU that finds a software renderer. */
export function gpuDrawingUnavailable(found: GlRenderer, missing: string[]): AppError {
  const why = missing.length > 0 ? missing.join('; ') : 'the GPU driver is present but ANGLE did not choose it';
  return new AppError(
    'GPU_DRAWING_UNAVAILABLE',
    `This worker was given a GPU (DRAWING_DEVICE=gpu) but draws on a software renderer, ${found.renderer}: ${why}. ` +
      'Set the chart value worker.allowSoftwareDrawing=true (DRAWING_DEVICE=any) to render on the CPU anyway.',
  );
}
