import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

/**
 * The PostgreSQL wire protocol over a loopback TCP port, answered by one PGlite. It does what
 * @electric-sql/pglite-socket did for us, in batches: every complete message a connection sent
 * goes to PGlite in ONE call and the answers go back in ONE socket write. pglite-socket made a
 * call, a queue entry and a socket write per protocol message (four per prepared query), which
 * cost about as much as the query itself.
 *
 * PGlite is one backend session, so connections take turns: whole batches in arrival order, and
 * while one connection has a transaction open only its batches run, until it ends (a connection
 * that closes mid-transaction is rolled back). Every connection shares the session, as with
 * pglite-socket: the application uses one client connection (see database.ts).
 */
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;

interface Connection {
  socket: Socket;
  /** Complete messages waiting for the database, in order. */
  pending: Buffer[];
  /** The start of a message whose end has not arrived yet. */
  partial: Buffer;
  /** The startup message (which has no type byte) has been seen. */
  started: boolean;
  /** The startup message, until it has run: PGlite takes it alone, not followed by others. */
  startup: Buffer | undefined;
}

export interface WireServer {
  /** `host:port` to connect to. */
  address: string;
  close(): Promise<void>;
}

export async function serveWire(
  db: PGlite,
  options: { host: string; port?: number; maxConnections: number },
): Promise<WireServer> {
  const connections = new Set<Connection>();
  /** Connections with pending messages, first come first served. */
  const ready: Connection[] = [];
  /** The connection whose transaction is open: nobody else runs until it ends. */
  let owner: Connection | undefined;
  let draining: Promise<void> | undefined;
  /** Closed connections still being cleaned up (a rollback): close() waits for them. */
  const closing = new Set<Promise<void>>();

  const next = (): Connection | undefined => {
    if (owner) {
      if (owner.pending.length === 0) return undefined;
      ready.splice(ready.indexOf(owner), 1);
      return owner;
    }
    return ready.shift();
  };

  const drainQueue = async () => {
    for (let conn = next(); conn; conn = next()) {
      const input = conn.pending.length === 1 ? conn.pending[0]! : Buffer.concat(conn.pending);
      conn.pending = [];
      const batch = conn;
      const startup = batch.startup;
      batch.startup = undefined;
      try {
        const output = await db.runExclusive(async () => {
          // The streaming call hands the answers over as they are written, without what
          // execProtocolRaw also does for PGlite's own query API: copy them into its buffer and
          // parse every message (about a tenth of this thread's time, spent decoding rows). The
          // chunks are views of PGlite's memory, so they are copied at once. (Every call must
          // stream: PGlite keeps the last stream callback for later raw calls.)
          const replies: Buffer[] = [];
          const onRawData = (chunk: Uint8Array) => replies.push(Buffer.from(chunk));
          if (startup) await db.execProtocolRawStream(startup, { onRawData });
          if (input.length > 0) await db.execProtocolRawStream(input, { onRawData });
          return replies.length === 1 ? replies[0]! : Buffer.concat(replies);
        });
        owner = db.isInTransaction() ? batch : undefined;
        if (output.length > 0 && !batch.socket.destroyed) batch.socket.write(output);
      } catch (err) {
        // PGlite answers SQL errors in the protocol; a throw here is a broken session or input.
        batch.socket.destroy(err instanceof Error ? err : new Error(String(err)));
      }
    }
  };

  const drain = () => {
    draining ??= drainQueue().finally(() => {
      draining = undefined;
    });
  };

  const onData = (conn: Connection, chunk: Buffer) => {
    const buf = conn.partial.length > 0 ? Buffer.concat([conn.partial, chunk]) : chunk;
    let start = 0;
    let end = 0;
    while (buf.length - end >= 5) {
      if (!conn.started) {
        if (buf.length - end < 8) break;
        const length = buf.readInt32BE(end);
        const code = buf.readInt32BE(end + 4);
        if (length < 8) return conn.socket.destroy(new Error('malformed startup message'));
        if (buf.length - end < length) break;
        if (code === SSL_REQUEST || code === GSSENC_REQUEST || code === CANCEL_REQUEST) {
          // No TLS on a loopback socket; cancelling is not supported (as with pglite-socket).
          if (code !== CANCEL_REQUEST) conn.socket.write('N');
          end += length;
          start = end;
          continue;
        }
        conn.started = true;
        conn.startup = buf.subarray(end, end + length);
        end += length;
        start = end;
        continue;
      }
      const length = 1 + buf.readInt32BE(end + 1);
      // A length below its own four bytes would never move on.
      if (length < 5) return conn.socket.destroy(new Error('malformed protocol message'));
      if (buf.length - end < length) break;
      end += length;
    }
    conn.partial = buf.subarray(end);
    if (end > start || conn.startup) {
      if (conn.pending.length === 0) ready.push(conn);
      conn.pending.push(buf.subarray(start, end));
      drain();
    }
  };

  const onClose = async (conn: Connection) => {
    connections.delete(conn);
    const at = ready.indexOf(conn);
    if (at >= 0) ready.splice(at, 1);
    conn.pending = [];
    if (owner === conn) {
      await draining;
      if (owner === conn) {
        // Still the owner while rolling back, so nobody else's batch runs inside its transaction.
        // exec takes PGlite's lock itself (inside runExclusive it would wait for ever).
        if (db.isInTransaction()) await db.exec('ROLLBACK');
        owner = undefined;
        drain();
      }
    }
  };

  const server: Server = createServer((socket) => {
    socket.setNoDelay(true);
    const conn: Connection = { socket, pending: [], partial: Buffer.alloc(0), started: false, startup: undefined };
    connections.add(conn);
    socket.on('data', (chunk: Buffer) => onData(conn, chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      const done = onClose(conn);
      closing.add(done);
      void done.finally(() => closing.delete(done));
    });
  });
  server.maxConnections = options.maxConnections;
  server.listen(options.port ?? 0, options.host);
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    address: `${options.host}:${port}`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const conn of connections) conn.socket.destroy();
      await closed;
      // A connection dropped mid-transaction is rolled back before the database may close.
      await Promise.all(closing);
      await draining;
    },
  };
}
