import type { Socket } from 'node:net';
import fp from 'fastify-plugin';

/**
 * Closes, when the app closes, the connections that never sent a request. Browsers open spare
 * connections ahead of need (Chromium does on every page), and Node's server.close() leaves them
 * open: they are not idle keep-alive connections to it, so a graceful shutdown waited for them
 * until their header timeout (60 s) or the client let go. Connections that sent a request keep
 * Node's own handling: idle ones are closed, in-flight ones finish (the drain).
 */
export const unusedConnectionsPlugin = fp(
  async (app) => {
    const unused = new Set<Socket>();
    app.server.on('connection', (socket: Socket) => {
      unused.add(socket);
      socket.once('close', () => unused.delete(socket));
    });
    app.addHook('onRequest', (request, _reply, done) => {
      unused.delete(request.raw.socket);
      done();
    });
    app.addHook('preClose', (done) => {
      for (const socket of unused) socket.destroy();
      done();
    });
  },
  { name: 'unused-connections' },
);
