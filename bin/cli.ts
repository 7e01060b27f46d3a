/**
 * `framewright <command>`: one CLI for every deployable. Each command lives in its own module,
 * loaded on demand so `framewright render` never loads Fastify and `serve` never loads three.js.
 * A command module exports `main(argv): Promise<number>` and returns the exit code.
 */
type CommandModule = { main: (argv: string[]) => Promise<number> };

const BENCH = '../bench/cli.ts';
const BENCH_FROM_SOURCE =
  'framewright bench: the benchmarks run from a source checkout (make bench-*), not from the build\n';

const COMMANDS: Record<string, { summary: string; load: () => Promise<CommandModule> }> = {
  serve: { summary: 'Start the API with the in-process executor', load: () => import('../api/cli/serve.ts') },
  operator: {
    summary: 'Reconcile Render resources into worker Jobs (in a cluster)',
    load: () => import('../operator/cli.ts'),
  },
  render: {
    summary: 'Render a movie document to MP4: render movie.json -o out.mp4',
    load: () => import('../worker/cli/render.ts'),
  },
  worker: {
    summary: 'Run renders for the in-process executor (IPC), or one Render in a Job pod: worker --render NAME',
    load: () => import('../worker/cli/worker.ts'),
  },
  voices: { summary: 'List the voice catalogue', load: () => import('../worker/cli/voices.ts') },
  accounts: { summary: 'Create accounts and change plans', load: () => import('../api/cli/accounts.ts') },
  keys: { summary: 'Create, list, roll and revoke API keys', load: () => import('../api/cli/keys.ts') },
  webhooks: {
    summary: "Show or rotate an account's webhook signing secret",
    load: () => import('../api/cli/webhooks.ts'),
  },
  credits: { summary: 'Grant credits to an account', load: () => import('../api/cli/credits.ts') },
  bench: {
    summary: 'Benchmarks: bench movie | api | render | e2e | operator | parallel (from a source checkout)',
    // The build (dist/) leaves the benchmarks out, as they drive development tools: a specifier
    // that is not a literal keeps the compiler from following it into the build.
    load: () =>
      (import(BENCH) as Promise<CommandModule>).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ERR_MODULE_NOT_FOUND') throw err;
        return {
          main: async () => {
            process.stderr.write(BENCH_FROM_SOURCE);
            return 2;
          },
        };
      }),
  },
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `Usage: framewright <command> [options]\n\nCommands:\n${lines.join('\n')}\n`;
}

async function run(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`framewright: unknown command "${name}".\n\n${usage()}`);
    return 2;
  }
  const mod = await command.load();
  return mod.main(rest);
}

run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // A throw no command caught: one JSON line (as every line a pod writes), then exit at once,
    // whatever the command had opened (a database pool would keep the process alive for ever).
    const e = err instanceof Error ? err : new Error(String(err));
    const line = {
      level: 60,
      time: new Date().toISOString(),
      name: 'cli',
      err: { type: e.name, message: e.message, stack: e.stack, code: (e as NodeJS.ErrnoException).code },
      msg: `framewright ${process.argv[2] ?? ''} failed: ${e.message}`,
    };
    process.stderr.write(`${JSON.stringify(line)}\n`);
    process.exit(1);
  },
);
