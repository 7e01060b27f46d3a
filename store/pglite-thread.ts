import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { serveWire } from './pglite-wire.ts';

/**
 * The embedded database's own thread (see pglite-server.ts): PGlite and its wire server.
 * Messages: it posts `{ address }` (`host:port`) once listening (or `{ error }`), and answers
 * `'stop'` with `'stopped'` after the server is closed and the database flushed.
 */
export interface PgliteThreadData {
  dataDir: string;
  maxConnections: number;
  /** What a connection must authenticate with (see pglite-wire.ts). */
  password: string;
}

export type PgliteThreadMessage = { address: string } | { error: string } | 'stopped';

const port = parentPort;
if (!port) throw new Error('pglite-thread runs in a worker thread');
const { dataDir, maxConnections, password } = workerData as PgliteThreadData;

try {
  const db = await PGlite.create({ dataDir });
  const server = await serveWire(db, { host: '127.0.0.1', maxConnections, password });
  port.on('message', async (message: unknown) => {
    if (message !== 'stop') return;
    await server.close();
    await db.close();
    port.postMessage('stopped' satisfies PgliteThreadMessage);
    port.close();
  });
  port.postMessage({ address: server.address } satisfies PgliteThreadMessage);
} catch (err) {
  port.postMessage({
    error: err instanceof Error ? (err.stack ?? err.message) : String(err),
  } satisfies PgliteThreadMessage);
}
