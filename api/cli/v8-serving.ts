import { setFlagsFromString } from 'node:v8';

/**
 * V8 settings of an API process, set by `serve` (and by `bench api`, which serves the same app)
 * before it builds the app. One place, so the bench measures what production runs.
 *
 * `--no-allocation-site-pretenuring`: under load, V8 sees the objects a request allocates at a
 * few sites (ioredis's command arguments, a rate-limit check waiting for Redis) survive a
 * scavenge, because they wait across a Redis round trip, and starts allocating everything from
 * those sites in the old generation. The old generation then fills with garbage in seconds and
 * a full mark-compact pauses the process about every 1.3 s. Whether a process falls into that
 * mode is decided by timing at its start: measured with `make bench-api` on PostgreSQL + Redis
 * (2 cores, quiet), runs split into two kinds, GET 27-35k req/s with p99 11-13 ms, or 40-43k
 * with p99 2-3 ms; with the flag, every run was of the second kind. The objects of a request die
 * young, so scavenges collect them; nothing else in the API depends on pretenuring.
 *
 * The flag is read when V8 decides, at a garbage collection, so setting it before the app's first
 * requests is enough (Node calls setFlagsFromString after start-up best effort; `make bench-api`
 * shows it in force: no run of the slow kind since).
 */
export function tuneV8ForServing(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
