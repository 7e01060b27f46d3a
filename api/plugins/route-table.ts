import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../lib/errors.ts';

interface RoutePattern {
  /** The url split on '/': `:name` matches one segment, `*` the rest of the path. */
  segments: string[];
  methods: Set<string>;
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
 * Knows every route, to answer the requests that match none: 405 METHOD_NOT_ALLOWED with an
 * `Allow` header when the path exists under other methods (HEAD is listed where GET is, as Fastify
 * serves it), else 404 NOT_FOUND. No route serves OPTIONS, so OPTIONS is a 405 with `Allow` too.
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
    app.addHook('onReady', async () => {
      patterns = [...byUrl].map(([url, methods]) => ({ segments: url.split('/'), methods }));
    });

    /** The methods served on `path` (as the router matches it: trailing slash ignored). */
    function allowedOn(rawPath: string): string[] {
      const trimmed = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
      const path = trimmed.split('/').map(decodeSegment);
      const allowed = new Set<string>();
      for (const p of patterns) if (matches(p.segments, path)) for (const m of p.methods) allowed.add(m);
      return [...allowed].sort();
    }

    function miss(request: FastifyRequest): AppError {
      const path = request.url.split('?')[0] ?? '';
      // An absolute-form target (`GET http://host/v1/x`) is routed by its path, so matched by it.
      const allowed = allowedOn(path.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, ''));
      if (allowed.length === 0) return new AppError('NOT_FOUND', `No route ${request.method} ${path}.`);
      const allow = allowed.join(', ');
      return new AppError('METHOD_NOT_ALLOWED', `${path} does not support ${request.method}; it supports ${allow}.`, {
        headers: { allow },
      });
    }

    // Answered before the body is read: a body sent to no route is not worth parsing (an empty or
    // broken JSON body must not turn a 404/405 into a 400).
    app.addHook('onRequest', async (request) => {
      if (request.is404) throw miss(request);
    });
    app.setNotFoundHandler(async (request) => {
      throw miss(request);
    });
  },
  { name: 'route-table', dependencies: ['error-handler'] },
);
