/**
 * The module map of ARCHITECTURE.md ("Module map": what each top-level module may import), as
 * dependency-cruiser rules over the import graph of the product's sources. `make test` runs it
 * (test/build/module-map.test.ts); `npx depcruise bin lib movie store api worker operator dashboard/src`
 * shows the same report. A rule here and a row there change together.
 */
const SOURCES = '^(bin|lib|movie|store|api|worker|operator|dashboard/src|player/src)/';
const NOT_TESTS = { pathNot: '\\.test\\.ts$' };

/** `from` may import nothing of ours outside `allowed` (node_modules and node: are always fine). */
function only(name, from, allowed, comment) {
  return {
    name,
    comment,
    severity: 'error',
    from: { path: from, ...NOT_TESTS },
    to: { path: SOURCES, pathNot: allowed },
  };
}

module.exports = {
  forbidden: [
    only(
      'lib-imports-only-lib',
      '^lib/',
      '^lib/|^store/types\\.ts$',
      'lib/ is shared by every deployable: it imports nothing else of ours (the Render resource takes one type from store/types.ts).',
    ),
    only('movie-imports-only-lib', '^movie/', '^(movie|lib)/', 'movie/ is pure and may use lib/ only.'),
    only(
      'store-imports-lib-movie',
      '^store/',
      '^(store|lib|movie)/',
      'store/ (the only place with SQL) may use lib/ and movie/.',
    ),
    only(
      'api-imports-lib-movie-store',
      '^api/',
      '^(api|lib|movie|store)/|^worker/job-protocol\\.ts$',
      'api/ may use lib/, movie/ and store/; of worker/ only the IPC message types (worker/job-protocol.ts).',
    ),
    only(
      'worker-knows-no-http',
      '^worker/',
      '^(worker|lib|movie)/',
      'worker/ is the renderer: lib/ and movie/ only, nothing of HTTP or SQL.',
    ),
    only('operator-imports-lib-store', '^operator/', '^(operator|lib|store)/', 'operator/ may use lib/ and store/.'),
    {
      name: 'dashboard-types-only',
      comment:
        'The browser dashboard takes only types from the API (erased by the bundler), the pure movie paths, and the browser player it bundles (player/src, under its own rules); nothing of Node.',
      severity: 'error',
      from: { path: '^dashboard/src/' },
      to: {
        path: SOURCES,
        pathNot: '^dashboard/src/|^movie/paths\\.ts$|^player/src/',
        dependencyTypesNot: ['type-only'],
      },
    },
    only(
      'player-draws-with-the-frame-graph',
      '^player/src/',
      '^(player/src|worker/draw/gpu|worker/plan|movie|lib)/|^clients/typescript/src/',
      "The browser player draws with the worker's frame graph and plan (worker/draw/gpu, worker/plan) and calls the API through the generated client; nothing of Node (its own rule below).",
    ),
    {
      name: 'player-no-node-host',
      comment: "The worker's side of the frame graph's seams (headless-gl, the disk) stays out of the browser.",
      severity: 'error',
      from: { path: '^player/src/' },
      to: { path: '^worker/draw/gpu/worker-host\\.ts$|^worker/draw/backend/' },
    },
    // The worker's stages (worker/README.md): each imports its own folder and those below it,
    // never one above; plan/ is the vocabulary the others share, run/ and cli/ compose them.
    only(
      'worker-plan-is-the-bottom',
      '^worker/plan/',
      '^(worker/plan|lib|movie)/',
      'worker/plan/ is pure: lib/ and movie/ only.',
    ),
    only(
      'worker-prepare-takes-plan-encode',
      '^worker/prepare/',
      '^(worker/(prepare|plan|encode)|lib|movie)/',
      'worker/prepare/ (assets, speech, text and shapes made textures, the sound track) uses worker/plan/, and worker/encode/ for the sound it encodes and the media it probes.',
    ),
    only(
      'worker-draw-takes-plan',
      '^worker/draw/',
      '^(worker/(draw|plan)|lib|movie)/',
      'worker/draw/ (frames on the GPU, the drawing backend) uses worker/plan/ only of the worker.',
    ),
    only(
      'worker-encode-takes-plan',
      '^worker/encode/',
      '^(worker/(encode|plan)|lib|movie)/',
      'worker/encode/ (ffmpeg: video, sound, images) uses worker/plan/ only of the worker.',
    ),
    {
      name: 'no-circular',
      comment: 'No module imports itself through others: a circle has no order to read it in, or to build it.',
      severity: 'error',
      from: { path: SOURCES },
      to: { circular: true },
    },
    {
      name: 'no-product-to-tests',
      comment: 'Product code never imports tests, benchmarks or scripts.',
      severity: 'error',
      from: { path: SOURCES, ...NOT_TESTS },
      to: { path: '^(test|bench|scripts)/|\\.test\\.ts$' },
    },
    {
      name: 'no-unresolvable',
      comment: 'An import of ours that does not resolve to a file.',
      severity: 'error',
      from: { path: SOURCES },
      to: { couldNotResolve: true, pathNot: '^node:' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules|\\.cache)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
  },
};
