import { fileURLToPath } from 'node:url';

/**
 * The path of one of our own modules, named as its TypeScript source (`./segment-child.ts`),
 * relative to the module at `base` (the caller's `import.meta.url`). From the sources that is the
 * .ts file; from the build (dist/, where every module is .js) it is the .js file beside the caller.
 * Child-process and worker-thread entries are found this way, so one code path serves both.
 */
export function ownModule(relative: string, base: string): string {
  const path = fileURLToPath(new URL(relative, base));
  return isBuilt(base) ? path.replace(/\.ts$/, '.js') : path;
}

/** Whether the module at `url` is built JavaScript (runs on bare Node) rather than TypeScript. */
export function isBuilt(url: string): boolean {
  return url.endsWith('.js');
}
