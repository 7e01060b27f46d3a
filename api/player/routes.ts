import { readFile } from 'node:fs/promises';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** The player's file name: player/build.ts PLAYER_FILE (test/player/player-route.test.ts fetches that name here). */
const PLAYER_FILE = 'framewright-player.js';

/**
 * The browser player as one ES module. From the build (dist/, what the images run) it is read from
 * dist/player/, which `make build` wrote; from the sources (`make run`, the tests through tsx) it is
 * bundled now, in memory, by the function the build uses. Both sit at ../../player/ from here.
 */
async function loadPlayer(): Promise<Buffer> {
  const dir = new URL('../../player/', import.meta.url);
  if (import.meta.url.endsWith('.js')) return readFile(new URL(PLAYER_FILE, dir));
  // A computed specifier: tsc must not compile the builder into dist/ (it needs the sources).
  const builder = new URL('build.ts', dir).href;
  const { buildPlayer } = (await import(builder)) as { buildPlayer: (sourceDir: string) => Promise<Buffer> };
  return buildPlayer(new URL('.', dir).pathname);
}

/**
 * GET /player/framewright-player.js: the player for any web page (docs/player.md). Public and
 * readable from any origin (a module script is fetched with CORS): it is code, and holds no data.
 * Not in the OpenAPI document: it is not API.
 */
const player: FastifyPluginAsyncTypebox = async (app) => {
  let body: Promise<Buffer> | undefined;
  app.get(`/player/${PLAYER_FILE}`, { config: { public: true }, schema: { hide: true } }, async (_request, reply) => {
    body ??= loadPlayer().catch((err) => {
      body = undefined; // a failed build is tried again on the next request
      throw err;
    });
    return reply
      .headers({
        'content-type': 'text/javascript; charset=utf-8',
        'access-control-allow-origin': '*',
        'cross-origin-resource-policy': 'cross-origin',
        'x-content-type-options': 'nosniff',
        'cache-control': 'public, max-age=300',
      })
      .send(await body);
  });
};

export default player;
