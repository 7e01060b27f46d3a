import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../lib/errors.ts';

interface RoutePattern {
  url: string;
  /** The url split on '/': `:name` matches one segment, `*` the rest of the path. */
  segments: string[];
  /** How specific each segment is, as the router prefers them: static 2, parametric 1, `*` 0. */
  rank: number[];
  methods: Set<string>;
}

function rankOf(segments: string[]): number[] {
  return segments.map((s) => (s === '*' ? 0 : s.includes(':') ? 1 : 2));
}

/** Which of two matching patterns the router prefers: the first segment where they differ decides. */
function compareRanks(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return 0;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // the router already refused undecodable paths (FST_ERR_BAD_URL)
  }
}

function matches(pattern: string[], path: string[]): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i] as string;
    if (p === '*') return true;
    const s = path[i];
    if (s === undefined) return false;
    if (p.includes(':')) {
      if (s === '') return false;
    } else if (p !== s) {
      return false;
    }
  }
  return pattern.length === path.length;
}

/**
 * Whether some path might match both patterns: not when, segment by segment, two static segments
 * differ or one pattern ends before the other (`*` matches any rest). Errs towards yes.
 */
function mayOverlap(a: string[], b: string[]): boolean {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === '*' || y === '*') return true;
    if (x === undefined || y === undefined) return false;
    if (x !== y && !x.includes(':') && !y.includes(':')) return false;
  }
  return true;
}

/**
 * Knows every route, to answer the requests that match none: 405 METHOD_NOT_ALLOWED with an
 * `Allow` header when the path exists under other methods (HEAD is listed where GET is, as Fastify
 * serves it), else 404 NOT_FOUND. No route serves OPTIONS, so OPTIONS is a 405 with `Allow` too.
 *
 * A path is served by its most specific routes, a static segment before a parameter before `*`, as
 * the router prefers them: `/v1/templates/check` is the check's (POST), not a template id's, so its
 * `Allow` is `POST`, and a GET there, which the router alone would hand to `/v1/templates/:id`
 * (its own tree per method), is a 405 too rather than "No template check.".
 */
export const routeTablePlugin = fp(
  async (app) => {
    const byUrl = new Map<string, Set<string>>();
    app.addHook('onRoute', (route) => {
      const methods = byUrl.get(route.url) ?? new Set<string>();
      byUrl.set(route.url, methods);
      for (const m of Array.isArray(route.method) ? route.method : [route.method]) methods.add(m);
    });
    let patterns: RoutePattern[] = [];
    /** The parametric routes that share some path with another route (mayOverlap). */
    let contestedUrls = new Set<string>();
    app.addHook('onReady', async () => {
      patterns = [...byUrl].map(([url, methods]) => {
        const segments = url.split('/');
        return { url, segments, rank: rankOf(segments), methods };
      });
      contestedUrls = new Set(
        patterns
          .filter((p) => p.url.includes(':') || p.url.includes('*'))
          .filter((p) => patterns.some((q) => q !== p && mayOverlap(p.segments, q.segments)))
          .map((p) => p.url),
      );
    });

    /** The most specific patterns matching `rawPath` (as the router matches it: trailing slash ignored). */
    function servingRoutes(rawPath: string): RoutePattern[] {
      const trimmed = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
      const path = trimmed.split('/').map(decodeSegment);
      let best: RoutePattern[] = [];
      for (const p of patterns) {
        if (!matches(p.segments, path)) continue;
        const order = best[0] === undefined ? 1 : compareRanks(p.rank, best[0].rank);
        if (order > 0) best = [p];
        else if (order === 0) best.push(p);
      }
      return best;
    }

    /** The request's path, without query; an absolute-form target (`GET http://host/v1/x`) is routed by its path. */
    function pathOf(request: FastifyRequest): { shown: string; routed: string } {
      const shown = request.url.split('?')[0] ?? '';
      return { shown, routed: shown.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '') };
    }

    function notAllowed(request: FastifyRequest, path: string, serving: RoutePattern[]): AppError {
      const allow = [...new Set(serving.flatMap((p) => [...p.methods]))].sort().join(', ');
      return new AppError('METHOD_NOT_ALLOWED', `${path} does not support ${request.method}; it supports ${allow}.`, {
        headers: { allow },
      });
    }

    function miss(request: FastifyRequest): AppError {
      const { shown, routed } = pathOf(request);
      const serving = servingRoutes(routed);
      if (serving.length === 0) return new AppError('NOT_FOUND', `No route ${request.method} ${shown}.`);
      return notAllowed(request, shown, serving);
    }

    // Answered before the body is read: a body sent to no route is not worth parsing (an empty or
    // broken JSON body must not turn a 404/405 into a 400). A callback hook: on nearly every
    // request it has nothing to do, and then it costs no promise.
    app.addHook('onRequest', (request, _reply, done) => {
      if (request.is404) return done(miss(request));
      // A parametric route the router chose for a method the more specific route lacks. Only a
      // route that shares some path with another can be such a route (`GET /v1/renders/{id}`,
      // the polled one, shares none): the others skip the match.
      const url = request.routeOptions.url;
      if (url === undefined || !contestedUrls.has(url)) return done();
      const { shown, routed } = pathOf(request);
      const serving = servingRoutes(routed);
      if (serving.length > 0 && !serving.some((p) => p.url === url)) return done(notAllowed(request, shown, serving));
      done();
    });
    app.setNotFoundHandler(async (request) => {
      throw miss(request);
    });
  },
  { name: 'route-table', dependencies: ['error-handler'] },
);
