import fp from 'fastify-plugin';

/** X-Request-Id on every response, 2xx included; the same id is in logs and error envelopes. */
export const requestIdPlugin = fp(
  async (app) => {
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id);
      done();
    });
  },
  { name: 'request-id' },
);
