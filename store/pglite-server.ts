import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { bundledEntry } from '../lib/bundled-entry.ts';
import { ownModule } from '../lib/module-path.ts';
import { lockDataDir } from './data-dir-lock.ts';
import type { PgliteThreadData, PgliteThreadMessage } from './pglite-thread.ts';

export interface EmbeddedPostgres {
  /** postgres://postgres:PASSWORD@127.0.0.1:PORT/postgres. It carries the password: never log it. */
  url: string;
  /**
   * Lets other processes of this user (the CLI while `serve` runs) use this database instead of
   * being locked out: writes where it listens and its password to sharedServerFile(dataDir).
   */
  share(): Promise<void>;
  stop(): Promise<void>;
}

/** Where a process that owns the embedded database and shares it says how to reach it. */
export interface SharedServer {
  pid: number;
  host: string;
  port: number;
  password: string;
}

/** The process that shares the embedded database does not answer, or refuses the password. */
export class SharedServerUnreachableError extends Error {}

export function sharedServerFile(dataDir: string): string {
  return `${dataDir}.server.json`;
}

/**
 * The shared server of the live process `pid` that holds the lock on `dataDir`, if it wrote one:
 * a file left by an earlier holder names another pid and is ignored.
 */
export async function findSharedServer(dataDir: string, pid: number): Promise<SharedServer | undefined> {
  const text = await readFile(sharedServerFile(dataDir), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  let info: Partial<SharedServer>;
  try {
    info = JSON.parse(text) as Partial<SharedServer>;
  } catch {
    return undefined;
  }
  // Loopback only, whatever the file says: the CLI never sends anything to another machine.
  if (info.pid !== pid || info.host !== '127.0.0.1' || !Number.isInteger(info.port)) return undefined;
  if (typeof info.password !== 'string' || info.password === '') return undefined;
  return info as SharedServer;
}

const threadEntry = ownModule('./pglite-thread.ts', import.meta.url);

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
 * Any local user can connect to a loopback port, so the wire server takes only connections that
 * authenticate with a random password made for this start; `url` carries it for this process's
 * own client, and share() hands it on to the CLI in a file only this user can read.
 *
 * A crash of the thread after start-up is not caught: the worker's 'error' event then has no
 * listener and takes the process down with the thread's error, as losing the database should.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  maxConnections: number;
}): Promise<EmbeddedPostgres> {
  const unlock = await lockDataDir(`${options.dataDir}.lock`);
  const serverFile = sharedServerFile(options.dataDir);
  const password = randomBytes(32).toString('base64url');
  let worker: Worker | undefined;
  try {
    // Left by a holder that died: it names a port that someone else may listen on by now.
    await rm(serverFile, { force: true });
    worker = new Worker(await bundledEntry(threadEntry), {
      workerData: {
        dataDir: options.dataDir,
        maxConnections: options.maxConnections,
        password,
      } satisfies PgliteThreadData,
      // The bundle is plain JavaScript: no TypeScript loader in this thread.
      execArgv: [],
    });
    const ready = await firstMessage(worker);
    if (ready === 'stopped') throw new Error('embedded database thread stopped before it started');
    if ('error' in ready) throw new Error(`embedded database failed to start: ${ready.error}`);
    const thread = worker;
    const [host, port] = ready.address.split(':') as [string, string];
    return {
      url: `postgres://postgres:${password}@${ready.address}/postgres`,
      async share() {
        const info: SharedServer = { pid: process.pid, host, port: Number(port), password };
        const tmp = `${serverFile}.${process.pid}.tmp`;
        await rm(tmp, { force: true });
        // Created with mode 0600 (a umask only narrows it): the password is the key to the
        // database. Written aside and renamed, so a reader never sees half of it.
        await writeFile(tmp, JSON.stringify(info), { mode: 0o600, flag: 'wx' });
        await rename(tmp, serverFile);
      },
      async stop() {
        try {
          // First, so nobody new is sent to a server that is going away.
          await rm(serverFile, { force: true });
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
