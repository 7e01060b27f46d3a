/** `framewright bench <name>`: each benchmark prints its figure beside a baseline measured in the same run. */
type BenchModule = { main: (argv: string[]) => Promise<number> };

const BENCHES: Record<string, () => Promise<BenchModule>> = {
  movie: () => import('./movie.ts'),
  api: () => import('./api.ts'),
  render: () => import('./render.ts'),
  e2e: () => import('./e2e.ts'),
  operator: () => import('./operator.ts'),
  parallel: () => import('./parallel.ts'),
};

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const load = name === undefined ? undefined : BENCHES[name];
  if (!load) {
    process.stderr.write(`Usage: framewright bench <${Object.keys(BENCHES).join('|')}>\n`);
    return 2;
  }
  return (await load()).main(rest);
}
