// The resolve hook of refuse-dev-packages.mjs: runs on the loader thread.
let refused = [];

export function initialize(data) {
  refused = data.devPackages.map((name) => `/node_modules/${name}/`);
}

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  const hit = refused.find((dir) => result.url.includes(dir));
  if (hit) throw new Error(`development package ${hit.slice(14, -1)} loaded (${specifier} from ${context.parentURL})`);
  return result;
}
