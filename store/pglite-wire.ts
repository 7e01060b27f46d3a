import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import { ScramExchange, scramVerifier } from './pglite-auth.ts';

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
 * pglite-socket: the application uses one client connection (see database.ts). A connection also
 * keeps its turn while its last batch left an extended-protocol sequence open (answers that do not
 * end in ReadyForQuery: a Parse/Describe/Flush awaiting its Bind, an error awaiting its Sync), so
 * another connection's messages never land inside it.
 *
 * Any local user can reach a loopback port, so a connection must authenticate first, with
 * SCRAM-SHA-256 (pglite-auth.ts) and the password this server was started with; nothing reaches
 * PGlite before that. NOTIFY answers land in the output of whichever connection ran the NOTIFY
 * (one session), so they are also relayed to every other connection: LISTEN on one connection
 * hears a NOTIFY sent on another, as on PostgreSQL (postgres.js ignores those it did not ask for).
 */
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
/** PostgreSQL's own limit on a startup packet; authentication messages are far smaller still. */
const MAX_STARTUP_LENGTH = 10_000;
const MAX_AUTH_MESSAGE_LENGTH = 1_024;
/** How long an unauthenticated connection may hold one of the few connection slots. */
const AUTH_TIMEOUT_MS = 10_000;
const NOTIFICATION_RESPONSE = 0x41; // 'A'
const READY_FOR_QUERY = 0x5a; // 'Z'
/** Execute of a portal that cannot exist (its name, byte 0xff, is no valid UTF-8), then Sync. */
const ABORT_SEQUENCE = Buffer.from([0x45, 0, 0, 0, 10, 0xff, 0, 0, 0, 0, 0, 0x53, 0, 0, 0, 4]);

interface Connection {
  socket: Socket;
  /** Complete messages waiting for the database, in order. */
  pending: Buffer[];
  /** The start of a message whose end has not arrived yet. */
  partial: Buffer;
  /** Startup message awaited, SCRAM first or final message awaited, authenticated, or refused. */
  phase: 'startup' | 'sasl-first' | 'sasl-final' | 'ready' | 'refused';
  scram: ScramExchange | undefined;
  /** The startup message, held during authentication and until it has run: PGlite takes it alone. */
  startup: Buffer | undefined;
  /** Its startup has run: asynchronous messages (notifications) may be written to it. */
  open: boolean;
  authTimer: NodeJS.Timeout | undefined;
}

export interface WireServer {
  /** `host:port` to connect to. */
  address: string;
  close(): Promise<void>;
}

/** An authentication message ('R') of the given type with its data. */
function authMessage(type: number, data = ''): Buffer {
  const body = Buffer.from(data);
  const out = Buffer.alloc(9 + body.length);
  out.write('R', 0);
  out.writeInt32BE(8 + body.length, 1);
  out.writeInt32BE(type, 5);
  body.copy(out, 9);
  return out;
}

/** A FATAL ErrorResponse. */
function fatal(code: string, message: string): Buffer {
  const fields = `SFATAL\0VFATAL\0C${code}\0M${message}\0\0`;
  const body = Buffer.from(fields);
  const out = Buffer.alloc(5 + body.length);
  out.write('E', 0);
  out.writeInt32BE(4 + body.length, 1);
  body.copy(out, 5);
  return out;
}

/**
 * Walks the answers of one batch: the NotificationResponse messages in it, and whether it ends in
 * ReadyForQuery (the sequence the client sent is complete). Headers only: a few reads per message.
 */
function scanOutput(output: Buffer): { notifications: Buffer[]; complete: boolean } {
  const notifications: Buffer[] = [];
  let last = -1;
  let at = 0;
  while (output.length - at >= 5) {
    const type = output[at] as number;
    const length = output.readInt32BE(at + 1);
    if (length < 4) break;
    const end = at + 1 + length;
    if (type === NOTIFICATION_RESPONSE) notifications.push(output.subarray(at, end));
    last = type;
    at = end;
  }
  return { notifications, complete: last === READY_FOR_QUERY };
}

export async function serveWire(
  db: PGlite,
  options: { host: string; port?: number; maxConnections: number; password: string },
): Promise<WireServer> {
  const verifier = scramVerifier(options.password);
  const connections = new Set<Connection>();
  /** Connections with pending messages, first come first served. */
  const ready: Connection[] = [];
  /** The connection whose transaction or protocol sequence is open: nobody else runs until it ends. */
  let owner: Connection | undefined;
  let draining: Promise<void> | undefined;
  /** Closed connections still being cleaned up (a rollback): close() waits for them. */
  const closing = new Set<Promise<void>>();
  /** Set once close() has settled: the database is about to close, nothing may run on it. */
  let finished = false;

  const next = (): Connection | undefined => {
    if (owner) {
      if (owner.pending.length === 0) return undefined;
      ready.splice(ready.indexOf(owner), 1);
      return owner;
    }
    return ready.shift();
  };

  const drainQueue = async () => {
    for (let conn = next(); conn && !finished; conn = next()) {
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
        const { notifications, complete } = scanOutput(output);
        owner = db.isInTransaction() || !complete ? batch : undefined;
        if (output.length > 0 && !batch.socket.destroyed) batch.socket.write(output);
        batch.open = true;
        if (notifications.length > 0) {
          // Between two batches every other connection stands at a message boundary.
          const relayed = notifications.length === 1 ? notifications[0]! : Buffer.concat(notifications);
          for (const other of connections) {
            if (other !== batch && other.open && !other.socket.destroyed) other.socket.write(relayed);
          }
        }
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

  const refuse = (conn: Connection, code: string, message: string) => {
    // One try per connection: whatever else it sends is ignored while the error is flushed.
    conn.phase = 'refused';
    conn.socket.end(fatal(code, message));
    conn.socket.destroySoon();
  };

  /**
   * One message of the handshake at the start of `buf`: the bytes it took, 0 while incomplete,
   * -1 when the connection was refused.
   */
  const handshake = (conn: Connection, buf: Buffer): number => {
    if (conn.phase === 'startup') {
      if (buf.length < 8) return 0;
      const length = buf.readInt32BE(0);
      const code = buf.readInt32BE(4);
      if (length < 8 || length > MAX_STARTUP_LENGTH) {
        conn.socket.destroy(new Error('malformed startup message'));
        return -1;
      }
      if (buf.length < length) return 0;
      if (code === SSL_REQUEST || code === GSSENC_REQUEST || code === CANCEL_REQUEST) {
        // No TLS on a loopback socket; cancelling is not supported (as with pglite-socket).
        if (code !== CANCEL_REQUEST) conn.socket.write('N');
        return length;
      }
      // Copied: the chunk it came in is not kept.
      conn.startup = Buffer.from(buf.subarray(0, length));
      conn.phase = 'sasl-first';
      conn.scram = new ScramExchange(verifier);
      conn.socket.write(authMessage(10, 'SCRAM-SHA-256\0\0')); // AuthenticationSASL
      return length;
    }
    const length = 1 + buf.readInt32BE(1);
    if (buf[0] !== 0x70 /* 'p' */ || length < 5 || length > MAX_AUTH_MESSAGE_LENGTH) {
      refuse(conn, '28000', 'SCRAM-SHA-256 authentication expected');
      return -1;
    }
    if (buf.length < length) return 0;
    const body = buf.subarray(5, length);
    const scram = conn.scram as ScramExchange;
    if (conn.phase === 'sasl-first') {
      // SASLInitialResponse: mechanism name, then the length of the client-first-message and it.
      const nul = body.indexOf(0);
      const mechanism = nul < 0 ? '' : body.toString('latin1', 0, nul);
      const reply =
        mechanism === 'SCRAM-SHA-256' && body.length >= nul + 5
          ? scram.first(body.toString('utf8', nul + 5, nul + 5 + Math.max(0, body.readInt32BE(nul + 1))))
          : undefined;
      if (reply === undefined) {
        refuse(conn, '28P01', 'password authentication failed for user "postgres"');
        return -1;
      }
      conn.phase = 'sasl-final';
      conn.socket.write(authMessage(11, reply)); // AuthenticationSASLContinue
      return length;
    }
    const reply = scram.final(body.toString('utf8'));
    if (reply === undefined) {
      refuse(conn, '28P01', 'password authentication failed for user "postgres"');
      return -1;
    }
    conn.socket.write(authMessage(12, reply)); // AuthenticationSASLFinal
    // PGlite now runs the startup message and answers AuthenticationOk and the rest.
    conn.phase = 'ready';
    conn.scram = undefined;
    clearTimeout(conn.authTimer);
    return length;
  };

  const onData = (conn: Connection, chunk: Buffer) => {
    if (conn.phase === 'refused' || conn.socket.destroyed) return;
    const buf = conn.partial.length > 0 ? Buffer.concat([conn.partial, chunk]) : chunk;
    let start = 0;
    let end = 0;
    while (buf.length - end >= 5) {
      if (conn.phase !== 'ready') {
        const taken = handshake(conn, buf.subarray(end));
        if (taken < 0) return;
        if (taken === 0) break;
        end += taken;
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
    if (conn.phase !== 'ready') return;
    if (end > start || conn.startup) {
      if (conn.pending.length === 0) ready.push(conn);
      conn.pending.push(buf.subarray(start, end));
      drain();
    }
  };

  const onClose = async (conn: Connection) => {
    clearTimeout(conn.authTimer);
    connections.delete(conn);
    const at = ready.indexOf(conn);
    if (at >= 0) ready.splice(at, 1);
    conn.pending = [];
    if (owner === conn) {
      await draining;
      if (owner === conn && !finished) {
        // Still the owner while rolling back, so nobody else's batch runs inside its transaction.
        // A protocol sequence it left open (no Sync yet) is ended as PostgreSQL ends it when a
        // client goes: a failing Execute aborts whatever it had begun, and the Sync closes it.
        await db.runExclusive(() => db.execProtocolRawStream(ABORT_SEQUENCE, { onRawData: () => {} }));
        // exec takes PGlite's lock itself (inside runExclusive it would wait for ever).
        if (db.isInTransaction()) await db.exec('ROLLBACK');
        owner = undefined;
        drain();
      }
    }
  };

  const server: Server = createServer((socket) => {
    socket.setNoDelay(true);
    const conn: Connection = {
      socket,
      pending: [],
      partial: Buffer.alloc(0),
      phase: 'startup',
      scram: undefined,
      startup: undefined,
      open: false,
      authTimer: setTimeout(() => socket.destroy(), AUTH_TIMEOUT_MS).unref(),
    };
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
      // A connection dropped mid-transaction is rolled back before the database may close. A
      // rollback may start another drain and a drain may end in another close: settle until
      // nothing is in flight, then refuse any late work (the database closes next).
      while (closing.size > 0 || draining) {
        await Promise.allSettled([...closing, draining]);
      }
      finished = true;
    },
  };
}
