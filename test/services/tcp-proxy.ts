import net from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';

/**
 * A TCP proxy between a client under test and a server, that can misbehave like a network:
 * `freeze()` stops forwarding bytes in both directions without closing anything (a hung
 * connection: no FIN, no RST), `thaw()` delivers what was held and carries on, `cut()` resets
 * every connection, `refuse` makes new connections fail at once (the server is unreachable).
 */
export interface TcpProxy {
  readonly port: number;
  /** `https://127.0.0.1:port` style URL for a server URL's scheme. */
  url(scheme: 'http' | 'https'): string;
  freeze(): void;
  thaw(): void;
  /** Destroys every open connection (both sides). */
  cut(): void;
  /** While true, new connections are destroyed as soon as they are accepted. */
  refuse: boolean;
  /** Connections accepted so far. */
  readonly accepted: number;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
  /** Bytes held while frozen, in order, with the side to write them to. */
  held: Array<[net.Socket, Buffer]>;
}

/**
 * Resets `socket` (an RST, as a cut network cable looks to the peer), or destroys it when its own
 * side is already ending. Node's resetAndDestroy() on a socket whose shutdown is under way fails
 * (EINVAL from libuv) yet marks the handle closing, so it is never closed, and the process then
 * spins at 100% of a core in its exit teardown for ever: the proxy's connections end that way when
 * the client sends its FIN (a socket that does not allow half-open ends its side too) and the test
 * cuts at that moment. That held a CI run for 81 minutes (test/services/tcp-proxy.test.ts).
 */
export function resetSocket(socket: net.Socket): void {
  if (socket.writableEnded) socket.destroy();
  else socket.resetAndDestroy();
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let frozen = false;
  let accepted = 0;

  const server = net.createServer((client) => {
    accepted++;
    if (proxy.refuse) {
      resetSocket(client);
      return;
    }
    const upstream = net.connect(target.port, target.host);
    const pair: Pair = { client, upstream, held: [] };
    pairs.add(pair);
    const forward = (to: net.Socket) => (chunk: Buffer) => {
      if (frozen) pair.held.push([to, chunk]);
      else to.write(chunk);
    };
    client.on('data', forward(upstream));
    upstream.on('data', forward(client));
    // A close is a byte on the wire too: while frozen it is held back like data.
    const end = () => {
      if (frozen) return void pair.held.push([client, Buffer.alloc(0)]);
      teardown();
    };
    const teardown = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', teardown);
    client.on('error', teardown);
    upstream.on('close', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;

  const proxy: TcpProxy = {
    port,
    refuse: false,
    get accepted() {
      return accepted;
    },
    url: (scheme) => `${scheme}://127.0.0.1:${port}`,
    freeze() {
      frozen = true;
    },
    thaw() {
      frozen = false;
      for (const pair of [...pairs]) {
        for (const [to, chunk] of pair.held.splice(0)) {
          if (chunk.length === 0) {
            pair.client.destroy();
            pair.upstream.destroy();
            pairs.delete(pair);
            break;
          }
          to.write(chunk);
        }
      }
    },
    cut() {
      for (const pair of [...pairs]) {
        resetSocket(pair.client);
        pair.upstream.destroy();
        pairs.delete(pair);
      }
    },
    close() {
      proxy.cut();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}

/** A copy of `kc` (an admin's, say) that reaches the apiserver at `server` through a new proxy. */
export async function kubeConfigViaProxy(kc: KubeConfig, server: string): Promise<{ kc: KubeConfig; proxy: TcpProxy }> {
  const url = new URL(server);
  const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port) });
  const via = new KubeConfig();
  via.loadFromOptions({
    clusters: kc.clusters.map((c) => ({ ...c, server: proxy.url('https') })),
    users: kc.users,
    contexts: kc.contexts,
    currentContext: kc.currentContext,
  });
  return { kc: via, proxy };
}
