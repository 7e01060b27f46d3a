'use strict';
/**
 * autocannon `setupClient` for bench/api.ts, loaded in autocannon's worker thread (which is why it
 * is a CommonJS file). Load comes from many accounts, as in production: each connection gets its
 * own slice of the bench accounts and cycles through them, so no two connections ever act for the
 * same account at the same time. FW_BENCH_REQUESTS holds, per connection, an array of
 * `{ key, path? }`: the API key to send and, for GET, the path of that account's own render (POST
 * uses the URL's path and the body given to autocannon). Set by bench/api.ts.
 */
const slices = JSON.parse(process.env.FW_BENCH_REQUESTS || '[]');
let connection = 0;

module.exports = function setupClient(client) {
  const requests = slices[connection++ % slices.length];
  client.setRequests(
    requests.map(({ key, path }) => ({
      ...(path ? { path } : {}),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    })),
  );
};
