import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { lockDataDir } from './data-dir-lock.ts';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * PGlite persisted in `dataDir`, served on a loopback port through pglite-socket so the regular
 * `postgres` client (and so every repository) talks to it exactly as to a real server. The socket
 * server runs one query at a time and keeps a transaction's statements on its own connection.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  maxConnections: number;
}): Promise<EmbeddedPostgres> {
  const unlock = await lockDataDir(`${options.dataDir}.lock`);
  const db = await PGlite.create({ dataDir: options.dataDir }).catch(async (err: unknown) => {
    await unlock();
    throw err;
  });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: options.maxConnections });
  await server.start();
  const conn = server.getServerConn();
  return {
    url: `postgres://postgres@${conn}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
      await unlock();
    },
  };
}
