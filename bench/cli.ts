/**
 * `framewright bench <name>`: each benchmark prints its figure beside a baseline measured in the
 * same run. Its options are declared and checked in bin/commands.ts, which passes the ones given
 * as `--name=value`; each benchmark's module is loaded only when it runs.
 */
type BenchModule = { main: (argv: string[]) => Promise<number> };

const BENCHES: Record<string, () => Promise<BenchModule>> = {
  movie: () => import('./movie.ts'),
  api: () => import('./api.ts'),
  render: () => import('./render.ts'),
  e2e: () => import('./e2e.ts'),
  operator: () => import('./operator.ts'),
  parallel: () => import('./parallel.ts'),
  leases: () => import('./leases.ts'),
  'gpu-check': () => import('./gpu-check.ts'),
  player: () => import('./player.ts'),
};

export async function runBench(name: string, argv: string[]): Promise<number> {
  const load = BENCHES[name];
  if (!load) throw new Error(`bench/cli.ts has no benchmark "${name}" (bin/commands.ts declares it)`);
  return (await load()).main(argv);
}
