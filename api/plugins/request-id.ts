import fp from 'fastify-plugin';

/** X-Request-Id on every response, 2xx included; the same id is in logs and error envelopes. */
export const requestIdPlugin = fp(
  async (app) => {
    app.addHook('onRequest', async (request, reply) => {
      reply.header('x-request-id', request.id);
    });
  },
  { name: 'request-id' },
);
