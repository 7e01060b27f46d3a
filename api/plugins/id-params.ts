import type { onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../lib/errors.ts';
import { type IdPrefix, isId } from '../../lib/ids.ts';

interface IdRoute {
  /** The prefix of the ids this route takes (outputs are named by their render). */
  prefix: IdPrefix | undefined;
  /** Exactly what the route answers for an unknown id. */
  notFound: (id: string) => AppError;
}

const render: IdRoute = {
  prefix: 'rnd',
  notFound: (id) => new AppError('NOT_FOUND', `No render ${id}.`, { path: 'id' }),
};
const template: IdRoute = {
  prefix: 'tpl',
  notFound: (id) => new AppError('NOT_FOUND', `No template ${id}.`, { path: 'id' }),
};
const script: IdRoute = {
  prefix: 'scr',
  notFound: (id) => new AppError('NOT_FOUND', `No script ${id}.`, { path: 'id' }),
};

const key: IdRoute = {
  prefix: 'key',
  notFound: (id) => new AppError('NOT_FOUND', `No key ${id}.`, { path: 'id' }),
};

/** Every route with an `:id`, by url. */
const ID_ROUTES: Record<string, IdRoute> = {
  '/v1/renders/:id': render,
  '/v1/renders/:id/movie': render,
  '/v1/renders/:id/cancel': render,
  '/v1/templates/:id': template,
  '/v1/templates/:id/renders': template,
  '/v1/scripts/:id': script,
  '/v1/scripts/:id/movie': script,
  '/v1/keys/:id': key,
  '/v1/keys/:id/roll': key,
  '/v1/assets/:id': { prefix: 'ast', notFound: (id) => new AppError('NOT_FOUND', `No asset ${id} for this API key.`) },
  // The two signed-link routes say nothing of the id: links cannot be probed.
  '/v1/assets/:id/content': { prefix: 'ast', notFound: () => new AppError('NOT_FOUND', 'No such asset.') },
  '/v1/outputs/:id': { prefix: 'rnd', notFound: () => new AppError('NOT_FOUND', 'No such output.') },
  '/v1/previews/:id/files/:name': {
    prefix: 'prv',
    notFound: () => new AppError('NOT_FOUND', 'No such preview file (it may have expired: prepare it again).'),
  },
};

/** A route this table does not know yet still gets the check, with any prefix. */
const UNLISTED: IdRoute = {
  prefix: undefined,
  notFound: (id) => new AppError('NOT_FOUND', `No resource ${id}.`, { path: 'id' }),
};

function wellFormed(prefix: IdPrefix | undefined, id: string): boolean {
  return isId(prefix ?? (id.slice(0, 3) as IdPrefix), id);
}

/**
 * One check for every `:id` route: an id that is not of our shape (prefix, 26 base-32 characters)
 * is answered as an unknown id before anything looks it up. It never reaches PostgreSQL, which
 * refuses some characters (NUL) with an error instead of "no rows". It runs after auth and rate
 * limiting (route hooks follow the instance's), and before the body is read and the params are
 * validated, so any length up to the router's maxParamLength is a 404, not a 400.
 */
export const idParamsPlugin = fp(
  async (app) => {
    app.addHook('onRoute', (route) => {
      if (!route.url.split('/').includes(':id')) return;
      const rule = ID_ROUTES[route.url] ?? UNLISTED;
      // A callback hook: a well-formed id (nearly all) passes without a promise.
      const check: onRequestHookHandler = (request, _reply, done) => {
        const id = (request.params as { id?: unknown }).id;
        if (typeof id !== 'string' || !wellFormed(rule.prefix, id)) return done(rule.notFound(String(id)));
        done();
      };
      const own = route.onRequest;
      route.onRequest = own === undefined ? [check] : [...(Array.isArray(own) ? own : [own]), check];
    });
  },
  { name: 'id-params' },
);
