import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The dashboard's files by name (index.html, app.js, app.css, icon.svg), as served. */
export type DashboardFiles = Map<string, { body: Buffer; type: string }>;

/** Every file the dashboard build writes (dashboard/build.ts), so the build and the server agree. */
export const DASHBOARD_FILES = ['index.html', 'app.js', 'app.css', 'icon.svg'] as const;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

function contentType(name: string): string {
  return TYPES[extname(name)] ?? 'application/octet-stream';
}

/**
 * The dashboard as this process serves it. From the build (dist/, what the images run: this file
 * is then dist/api/dashboard/files.js) it is read from dist/dashboard/, which `make build` wrote,
 * so no bundler is needed at run time. From the sources (`make run`, the tests through tsx) it is
 * bundled now, in memory, from dashboard/ by the same function the build uses: an edit shows on
 * the next start with no build step. Both sit at ../../dashboard/ from here.
 */
export async function loadDashboard(): Promise<DashboardFiles> {
  const dir = new URL('../../dashboard/', import.meta.url);
  if (import.meta.url.endsWith('.js')) {
    const entries = await Promise.all(
      DASHBOARD_FILES.map(async (name) => [name, await readFile(new URL(name, dir))] as const),
    );
    return new Map(entries.map(([name, body]) => [name, { body, type: contentType(name) }]));
  }
  // A computed specifier: tsc must not compile the builder into dist/ (it needs the sources).
  const builder = new URL('build.ts', dir).href;
  const { buildDashboard } = (await import(builder)) as {
    buildDashboard: (sourceDir: string) => Promise<Map<string, Buffer>>;
  };
  const built = await buildDashboard(fileURLToPath(dir));
  return new Map([...built].map(([name, body]) => [name, { body, type: contentType(name) }]));
}
