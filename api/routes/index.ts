import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** A route module: one resource, one file, default-exporting a Fastify plugin. */
export interface RouteModule {
  name: string;
  /** Mounted under this prefix ('/v1' for API resources, '' for public pages). */
  prefix: string;
  load: () => Promise<{ default: FastifyPluginAsyncTypebox }>;
}

/** Every route module, in registration order. Adding a resource is adding one line here. */
export const ROUTE_MODULES: readonly RouteModule[] = [
  { name: 'meta', prefix: '', load: () => import('./meta.ts') },
  { name: 'health', prefix: '', load: () => import('./health.ts') },
  { name: 'dashboard', prefix: '', load: () => import('./dashboard.ts') },
  { name: 'renders', prefix: '/v1', load: () => import('./renders.ts') },
  { name: 'templates', prefix: '/v1', load: () => import('./templates.ts') },
  { name: 'usage', prefix: '/v1', load: () => import('./usage.ts') },
  { name: 'keys', prefix: '/v1', load: () => import('./keys.ts') },
  { name: 'template-check', prefix: '/v1', load: () => import('./template-check.ts') },
  { name: 'render-movie', prefix: '/v1', load: () => import('./render-movie.ts') },
  { name: 'scripts', prefix: '/v1', load: () => import('../scripts/routes.ts') },
  { name: 'outputs', prefix: '/v1', load: () => import('../pipeline/outputs-route.ts') },
  { name: 'voices', prefix: '/v1', load: () => import('../pipeline/voices-route.ts') },
  { name: 'assets', prefix: '/v1', load: () => import('../pipeline/assets-route.ts') },
];
