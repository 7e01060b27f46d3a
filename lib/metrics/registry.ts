import { readFileSync } from 'node:fs';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';

/** The version in package.json, read once (two levels up from lib/metrics, in source and in dist). */
function packageVersion(): string {
  for (const rel of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'framewright' && pkg.version) return pkg.version;
    } catch {
      // not there: the other layout
    }
  }
  return 'unknown';
}

export const FRAMEWRIGHT_VERSION = packageVersion();

/**
 * A registry for one process (or one app in a test): `framewright_build_info` and the default
 * Node.js process metrics. Never prom-client's global registry, so several apps can share a process.
 */
export function createRegistry(options: { processMetrics?: boolean } = {}): Registry {
  const registry = new Registry();
  const info = new Gauge({
    name: 'framewright_build_info',
    help: 'Always 1; the labels say which Framewright version and which Node.js runs.',
    labelNames: ['version', 'node_version'] as const,
    registers: [registry],
  });
  info.set({ version: FRAMEWRIGHT_VERSION, node_version: process.version }, 1);
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });
  return registry;
}
