import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { bundledEntry } from '../lib/bundled-entry.ts';
import { lockDataDir } from './data-dir-lock.ts';
import type { PgliteThreadData, PgliteThreadMessage } from './pglite-thread.ts';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

const threadEntry = fileURLToPath(new URL('./pglite-thread.ts', import.meta.url));

/**
 * PGlite persisted in `dataDir`, served on a loopback port by pglite-wire.ts so the regular
 * `postgres` client (and so every repository) talks to it exactly as to a real server.
 *
 * PGlite runs in a worker thread of its own (pglite-thread.ts, bundled to plain JavaScript): its
 * queries execute in WebAssembly and would otherwise stall this thread's HTTP handling for their
 * whole duration. Across threads the API parses and answers requests while the database works,
 * which is what the second core of a small machine is for. The directory lock stays here, with
 * the process that owns it.
 *
 * A crash of the thread after start-up is not caught: the worker's 'error' event then has no
 * listener and takes the process down with the thread's error, as losing the database should.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  maxConnections: number;
}): Promise<EmbeddedPostgres> {
  const unlock = await lockDataDir(`${options.dataDir}.lock`);
  let worker: Worker | undefined;
  try {
    worker = new Worker(await bundledEntry(threadEntry), {
      workerData: { dataDir: options.dataDir, maxConnections: options.maxConnections } satisfies PgliteThreadData,
      // The bundle is plain JavaScript: no TypeScript loader in this thread.
      execArgv: [],
    });
    const ready = await firstMessage(worker);
    if (ready === 'stopped') throw new Error('embedded database thread stopped before it started');
    if ('error' in ready) throw new Error(`embedded database failed to start: ${ready.error}`);
    const thread = worker;
    return {
      url: ready.url,
      async stop() {
        try {
          thread.postMessage('stop');
          await firstMessage(thread);
        } finally {
          // Closed and flushed (or failed trying): nothing is left in the thread to wait for.
          await thread.terminate();
          await unlock();
        }
      },
    };
  } catch (err) {
    await worker?.terminate();
    await unlock();
    throw err;
  }
}

/** The thread's next message; an error or an exit before it rejects. */
function firstMessage(worker: Worker): Promise<PgliteThreadMessage> {
  return new Promise((resolve, reject) => {
    const done = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (message: PgliteThreadMessage) => {
      done();
      resolve(message);
    };
    const onError = (err: Error) => {
      done();
      reject(err);
    };
    const onExit = (code: number) => {
      done();
      reject(new Error(`embedded database thread exited (code ${code})`));
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
}
