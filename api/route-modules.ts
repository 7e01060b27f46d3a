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
  { name: 'meta', prefix: '', load: () => import('./meta/routes.ts') },
  { name: 'health', prefix: '', load: () => import('./health/routes.ts') },
  { name: 'dashboard', prefix: '', load: () => import('./dashboard/routes.ts') },
  { name: 'player', prefix: '', load: () => import('./player/routes.ts') },
  { name: 'renders', prefix: '/v1', load: () => import('./renders/routes.ts') },
  { name: 'templates', prefix: '/v1', load: () => import('./templates/routes.ts') },
  { name: 'usage', prefix: '/v1', load: () => import('./usage/routes.ts') },
  { name: 'keys', prefix: '/v1', load: () => import('./keys/routes.ts') },
  { name: 'template-check', prefix: '/v1', load: () => import('./templates/check-route.ts') },
  { name: 'render-movie', prefix: '/v1', load: () => import('./renders/movie-route.ts') },
  { name: 'scripts', prefix: '/v1', load: () => import('./scripts/routes.ts') },
  { name: 'outputs', prefix: '/v1', load: () => import('./outputs/routes.ts') },
  { name: 'output-images', prefix: '/v1', load: () => import('./outputs/image-routes.ts') },
  { name: 'voices', prefix: '/v1', load: () => import('./voices/routes.ts') },
  { name: 'assets', prefix: '/v1', load: () => import('./assets/routes.ts') },
  { name: 'previews', prefix: '/v1', load: () => import('./previews/routes.ts') },
];
