'use strict';
/**
 * autocannon `setupClient` for the POST rows of bench/api.ts, loaded in autocannon's worker
 * thread (which is why it is a CommonJS file). Each connection gets its own slice of the bench
 * accounts and cycles through them, so no two connections ever create for the same account at the
 * same time, and each account's active renders stay under its plan's cap. The keys arrive in
 * FW_BENCH_POST_KEYS (a JSON array with one array of keys per connection), set by bench/api.ts.
 */
const slices = JSON.parse(process.env.FW_BENCH_POST_KEYS || '[]');
let connection = 0;

module.exports = function setupClient(client) {
  const keys = slices[connection++ % slices.length];
  client.setRequests(
    keys.map((key) => ({ headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` } })),
  );
};
