/**
 * Every command of `framewright`, its options and its help, declared once with commander: the
 * parser, `--help`, `--version`, the errors and the shell completion (bin/completion.ts) all read
 * this tree. Light on purpose: it imports commander and nothing of ours but types and one list
 * (store/types.ts, no imports of its own). A command's module is imported by its action, when
 * that command runs, so `framewright render` never loads Fastify and `serve` never loads three.js.
 *
 * Options are parsed and checked here (integers, choices, required options); a command module
 * gets typed values and returns the process's exit code. A usage error prints the message and the
 * command's help on stderr and exits 2; `--help`, `help` and `--version` print on stdout and exit 0.
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { AccountsCreateOptions, AccountsSetPlanOptions } from '../api/cli/accounts.ts';
import type { AccountOptions } from '../api/cli/common.ts';
import type { CreditsGrantOptions } from '../api/cli/credits.ts';
import type { KeyOptions, KeysCreateOptions } from '../api/cli/keys.ts';
import { PLANS } from '../store/types.ts';
import type { RenderCommandOptions } from '../worker/cli/render.ts';
import type { VoicesOptions } from '../worker/cli/voices.ts';
import type { WorkerOptions } from '../worker/cli/worker.ts';

/** Where help, versions and usage errors are written (the process's streams; tests capture them). */
export interface CliOutput {
  writeOut(text: string): void;
  writeErr(text: string): void;
  /** The width help is wrapped to (default: the terminal's, else 80, as for a pipe). */
  helpWidth?: number;
}

const STDIO: CliOutput = {
  writeOut: (text) => process.stdout.write(text),
  writeErr: (text) => process.stderr.write(text),
};

/** The version in package.json: beside bin/ in a checkout, two levels up from dist/bin/ in a build. */
function packageVersion(): string {
  for (const rel of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'framewright' && pkg.version) return pkg.version;
    } catch {
      // not this one
    }
  }
  throw new Error('framewright: package.json not found beside bin/ or dist/bin/');
}

/** An option-argument that must be an integer in [min, max]. */
function integer(min: number, max?: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^-?\d+$/.test(value) || n < min || (max !== undefined && n > max)) {
      throw new InvalidArgumentError(
        max === undefined ? `Expected an integer >= ${min}.` : `Expected an integer from ${min} to ${max}.`,
      );
    }
    return n;
  };
}

/** An option-argument that must not be empty (`--account ''`). */
function nonEmpty(value: string): string {
  if (value === '') throw new InvalidArgumentError('Expected a value.');
  return value;
}

const json = () => new Option('--json', 'print JSON instead of text');
const account = () => new Option('--account <id>', 'the account (acc_...)').argParser(nonEmpty).makeOptionMandatory();
const plan = (what: string) => new Option('--plan <plan>', what).choices(PLANS).makeOptionMandatory();
const mode = () => new Option('--mode <mode>', 'live or test key').choices(['live', 'test']).default('live');

/** A command with subcommands, and a `help [command]` of its own (`accounts help create`). */
function group(parent: Command, name: string): Command {
  return parent.command(name).helpCommand('help [command]', 'Print the help of a command');
}

/**
 * The command tree. `setExit` receives each action's exit code (an action returns a number,
 * which commander does not keep).
 */
export function buildProgram(setExit: (code: number) => void, output: CliOutput = STDIO): Command {
  const act =
    <O>(run: (options: O, cmd: Command) => Promise<number>) =>
    async (options: O, cmd: Command) => {
      setExit(await run(options, cmd));
    };

  const width = output.helpWidth ?? 80;
  const program = new Command('framewright')
    .usage('<command> [options]')
    .description('Self-hostable video rendering: JSON movie documents in, MP4 out, behind an HTTP API.')
    .version(packageVersion(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'print this help')
    // Inherited by every command added below.
    .exitOverride()
    .configureOutput({
      writeOut: (s) => output.writeOut(s),
      writeErr: (s) => output.writeErr(s),
      ...(output.helpWidth === undefined ? {} : { getOutHelpWidth: () => width, getErrHelpWidth: () => width }),
    })
    .showHelpAfterError()
    .addHelpText(
      'after',
      '\nConfiguration comes from the environment (README.md, "Configuration").\n' +
        'Run `framewright <command> --help` for the options of a command.',
    );

  program
    .command('serve')
    .summary('Start the HTTP API (and its in-process executor)')
    .description(
      'Start the HTTP API on PORT: the database opened and migrated (DATABASE_URL, else the embedded one ' +
        'under DATA_DIR), then the app; renders run in worker processes of this machine, or as Jobs in a ' +
        'cluster with RENDER_EXECUTOR=kubernetes. A first start on an empty embedded database creates a ' +
        'trial account and prints its key once. SIGTERM or SIGINT drain and stop it.',
    )
    .action(act(async () => (await import('../api/cli/serve.ts')).main()));

  program
    .command('operator')
    .summary('Reconcile Render resources into worker Jobs (in a cluster)')
    .description(
      'Reconcile Render resources into worker Jobs and mirror them into PostgreSQL (DATABASE_URL, ' +
        'KUBE_NAMESPACE, WORKER_*; the cluster from KUBECONFIG or the service account). SIGTERM stops ' +
        'it and releases the leader Lease.',
    )
    .action(act(async () => (await import('../operator/cli.ts')).main()));

  program
    .command('render')
    .summary('Render a movie document to MP4 on this machine')
    .description('Render a movie document to an MP4 file on this machine: render movie.json -o out.mp4.')
    .argument('<movie>', 'the movie document (JSON)')
    .addOption(
      new Option(
        '-o, --output <file>',
        "the file to write: an MP4, or the movie's output.format",
      ).makeOptionMandatory(),
    )
    .addOption(
      new Option('-p, --parallel <n>', 'segments rendered in parallel processes (1-64)')
        .argParser(integer(1, 64))
        .default(1),
    )
    .option('--json', 'progress and the result as JSON lines on stdout')
    .option('--draft', 'half size, watermarked')
    .option('--watermark', 'add the watermark')
    .addHelpText(
      'after',
      "\nExit status: 0, or the exit number of the failure's error code (docs/errors.md),\nits code printed.",
    )
    .action(async (movie: string, options: Omit<RenderCommandOptions, 'movie'>) =>
      setExit(await (await import('../worker/cli/render.ts')).main({ movie, ...options })),
    );

  program
    .command('worker')
    .summary('Run renders: for the in-process executor, or one Render in a Job pod')
    .description(
      'Without --render: run the renders the in-process executor sends over IPC (it starts this). ' +
        "With --render NAME: run one Render resource's work in a Job pod (the operator's command).",
    )
    .option('--render <name>', 'the Render resource to run')
    .addOption(
      new Option('--step <step>', 'the stage of the render, with --render')
        .choices(['single', 'prepare', 'segments', 'join'])
        .default('single'),
    )
    .addOption(
      new Option('--segments <n>', "the prepare step's segment budget (1-64), with --render")
        .argParser(integer(1, 64))
        .default(1),
    )
    .action(
      act(async (options: WorkerOptions, cmd) => {
        const given = (name: string) => cmd.getOptionValueSource(name) === 'cli';
        if (options.render === undefined && (given('step') || given('segments'))) {
          cmd.error('error: --step and --segments go with --render NAME.', { exitCode: 2 });
        }
        return (await import('../worker/cli/worker.ts')).main(options);
      }),
    );

  program
    .command('voices')
    .description('List the voice catalogue')
    .addOption(json())
    .action(act(async (options: VoicesOptions) => (await import('../worker/cli/voices.ts')).main(options)));

  const accounts = group(program, 'accounts').description('Create accounts and change plans');
  accounts
    .command('create')
    .description('Create an account with a key (shown once) and a webhook signing secret')
    .addOption(plan('the plan'))
    .addOption(new Option('--credits <n>', "credits to start with (default: the plan's)").argParser(integer(0)))
    .option('--name <name>', "the account's name")
    .addOption(mode())
    .addOption(json())
    .action(act(async (options: AccountsCreateOptions) => (await import('../api/cli/accounts.ts')).create(options)));
  accounts
    .command('set-plan')
    .description("Change an account's plan")
    .addOption(account())
    .addOption(plan('the new plan'))
    .addOption(json())
    .action(act(async (options: AccountsSetPlanOptions) => (await import('../api/cli/accounts.ts')).setPlan(options)));

  const keys = group(program, 'keys').description('Create, list, roll and revoke API keys');
  keys
    .command('create')
    .description('Create a key for an account (shown once)')
    .addOption(account())
    .addOption(mode())
    .addOption(json())
    .action(act(async (options: KeysCreateOptions) => (await import('../api/cli/keys.ts')).create(options)));
  keys
    .command('list')
    .description("List an account's keys (never their secrets)")
    .addOption(account())
    .addOption(json())
    .action(act(async (options: AccountOptions) => (await import('../api/cli/keys.ts')).list(options)));
  const keyId = () => new Option('--key <id>', 'the key (key_...)').argParser(nonEmpty).makeOptionMandatory();
  keys
    .command('roll')
    .description('Replace a key: the new key first (shown once), then the old one is revoked')
    .addOption(keyId())
    .addOption(json())
    .action(act(async (options: KeyOptions) => (await import('../api/cli/keys.ts')).roll(options)));
  keys
    .command('revoke')
    .description('Revoke a key (refused from then on)')
    .addOption(keyId())
    .addOption(json())
    .action(act(async (options: KeyOptions) => (await import('../api/cli/keys.ts')).revoke(options)));

  const credits = group(program, 'credits').description('Grant credits to an account');
  credits
    .command('grant')
    .description("Add credits to an account's balance")
    .addOption(account())
    .addOption(new Option('--amount <n>', 'credits to add (>= 1)').argParser(integer(1)).makeOptionMandatory())
    .addOption(json())
    .action(act(async (options: CreditsGrantOptions) => (await import('../api/cli/credits.ts')).grant(options)));

  const webhooks = group(program, 'webhooks').description(
    "Show or rotate an account's webhook signing secret (Standard Webhooks, whsec_...)",
  );
  webhooks
    .command('secret')
    .description('Show the signing secret (created if missing)')
    .addOption(account())
    .addOption(json())
    .action(act(async (options: AccountOptions) => (await import('../api/cli/webhooks.ts')).secret(options)));
  webhooks
    .command('rotate-secret')
    .description('Replace the signing secret: deliveries from now on use the new one')
    .addOption(account())
    .addOption(json())
    .action(act(async (options: AccountOptions) => (await import('../api/cli/webhooks.ts')).rotateSecret(options)));

  addBench(program, setExit, output);

  program
    .command('completion')
    .description('Print a shell completion script (bash or zsh)')
    .addHelpText(
      'after',
      '\nbash: source <(framewright completion bash)\n' +
        '      or save it as ~/.local/share/bash-completion/completions/framewright\n' +
        'zsh:  framewright completion zsh > "$fpath[1]/_framewright", then compinit\n' +
        '      (or source <(framewright completion zsh) after compinit)',
    )
    .addArgument(program.createArgument('<shell>', 'bash or zsh').choices(['bash', 'zsh']))
    .action(async (shell: 'bash' | 'zsh') => {
      const { completionScript } = await import('./completion.ts');
      output.writeOut(completionScript(program, shell));
      setExit(0);
    });

  // `help accounts create` as well as `help accounts` (commander's own takes one word; the
  // commands with subcommands keep theirs: `accounts help create`).
  program
    .command('help')
    .description('Print the help of a command, e.g. help accounts create')
    .argument('[command...]', 'the command, e.g. accounts create')
    .action((words: string[]) => {
      let target = program;
      for (const word of words) {
        const next = target.commands.find((c) => c.name() === word);
        if (!next) program.error(`error: unknown command '${words.join(' ')}'`, { exitCode: 2 });
        target = next as Command;
      }
      target.help();
    });

  return program;
}

/** bench/cli.ts, as this module sees it (a type of its own: the build leaves bench/ out). */
type BenchModule = { runBench: (name: string, argv: string[]) => Promise<number> };

const BENCH = '../bench/cli.ts';
const BENCH_FROM_SOURCE =
  'framewright bench: the benchmarks run from a source checkout (make bench-*), not from the build\n';

/**
 * `framewright bench <name>`: the options are declared and checked here; the benchmark gets the
 * ones given on the command line as `--name=value` (its own defaults apply to the others).
 */
function addBench(program: Command, setExit: (code: number) => void, output: CliOutput): void {
  const bench = group(program, 'bench')
    .summary('Benchmarks (from a source checkout)')
    .description(
      'Benchmarks, each printing its figures beside a baseline measured in the same run (from a source ' +
        'checkout: make bench-*).',
    );
  const run = async (_options: unknown, cmd: Command) => {
    const argv = cmd.options.flatMap((o) => {
      const key = o.attributeName();
      if (cmd.getOptionValueSource(key) !== 'cli') return [];
      const value: unknown = cmd.getOptionValue(key);
      return value === true ? [o.long as string] : [`${o.long}=${String(value)}`];
    });
    // The build (dist/) leaves the benchmarks out, as they drive development tools: a specifier
    // that is not a literal keeps the compiler from following it into the build.
    const mod = await (import(BENCH) as Promise<BenchModule>).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ERR_MODULE_NOT_FOUND') throw err;
      return undefined;
    });
    if (!mod) {
      output.writeErr(BENCH_FROM_SOURCE);
      setExit(2);
      return;
    }
    setExit(await mod.runBench(cmd.name(), argv));
  };
  const movieFile = (file: string) => new Option('--movie <file>', 'the benchmark movie').default(file);

  bench
    .command('movie')
    .description('Validation and variable resolution of a 500-scene document')
    .addOption(new Option('--runs <n>', 'runs of each').argParser(integer(1)).default(300))
    .action(run);
  bench
    .command('api')
    .description(
      'GET and POST /v1/renders against a bare Fastify route, on PGlite and on PostgreSQL + Redis ' +
        '(make bench-api starts the services).',
    )
    .addOption(new Option('--duration <sec>', 'seconds per row').argParser(integer(1)).default(10))
    .addOption(new Option('--backend <backend>', 'one backend only (without it: both)').choices(['pglite', 'postgres']))
    .addOption(new Option('--only <kind>', 'one request kind only (without it: both)').choices(['get', 'post']))
    .option(
      '--profile',
      'profile the GET path instead (bench/profiles/<backend>-get.cpuprofile and where its CPU goes)',
    )
    .action(run);
  bench
    .command('render')
    .description('Renders of the benchmark movies: encoders, text, motion, clips, beside ffmpeg alone')
    .addOption(movieFile('examples/bench-60s.json'))
    .addOption(new Option('--text-movie <file>', 'the text-heavy movie').default('examples/bench-60s-text.json'))
    .addOption(
      new Option('--motion-movie <file>', 'the motion-graphics movie').default('examples/bench-60s-motion.json'),
    )
    .option('--quick', 'fewer and shorter rows')
    .option(
      '--against <dir>',
      'instead: the three movies rendered by this checkout and the one in <dir> (scripts/bench-baseline.sh REV), alternately',
    )
    .action(run);
  bench
    .command('e2e')
    .description('Renders through the API and the in-process executor, end to end')
    .addOption(new Option('--renders <n>', 'renders to run').argParser(integer(1)).default(20))
    .addOption(new Option('--concurrency <n>', 'renders at once (default: the CPU count)').argParser(integer(1)))
    .action(run);
  bench
    .command('operator')
    .description('The operator reconciling many Renders into Jobs (make bench-operator starts PostgreSQL)')
    .addOption(new Option('--jobs <n>', 'Renders to create').argParser(integer(1)).default(1000))
    .addOption(new Option('--concurrency <n>', 'Renders created at once').argParser(integer(1)).default(32))
    .action(run);
  bench
    .command('leases')
    .description(
      'Claim, heartbeat and the abandoned sweep with many renders running (make bench-leases starts PostgreSQL)',
    )
    .addOption(new Option('--running <n>', 'renders running').argParser(integer(1)).default(10_000))
    .addOption(new Option('--calls <n>', 'calls of each statement').argParser(integer(1)).default(1000))
    .action(run);
  bench
    .command('gpu-check')
    .description(
      'The benchmark movies drawn through the GPU path and the CPU path (Mesa): renderer, draw, encode and end-to-end fps, largest pixel difference',
    )
    .addOption(
      new Option('--path <path>', 'internal: measure one path in this process').choices(['gpu', 'cpu']).hideHelp(),
    )
    .addOption(new Option('--dir <dir>', 'internal: scratch directory').hideHelp())
    .addOption(new Option('--keyed <url>', "internal: the keyed clip's address").hideHelp())
    .addOption(new Option('--json <file>', "internal: where the path's figures go").hideHelp())
    .action(run);
  bench
    .command('player')
    .description(
      "The browser player in headless Chromium at 540p and 1080p: playback fps and dropped frames, seek times, beside the page's bare animation-frame rate",
    )
    .addOption(movieFile('examples/bench-60s.json'))
    .addOption(new Option('--seeks <n>', 'seeks to random times at each size').argParser(integer(1)).default(24))
    .option('--quick', "the movie's first 20 s only")
    .action(run);
  bench
    .command('parallel')
    .description('A long movie rendered in 1, 4 and 8 segments, on one machine and as pod steps')
    .addOption(movieFile('examples/bench-60s.json'))
    .option('--quick', 'a shorter movie, fewer segment counts')
    .action(run);
}

/**
 * Parses `argv` (the words after `framewright`) and runs the command: resolves with its exit code.
 * Usage errors resolve with 2, help and version with 0; a command's own failure rejects.
 */
export async function runCli(argv: readonly string[], output: CliOutput = STDIO): Promise<number> {
  let code = 0;
  const program = buildProgram((c) => {
    code = c;
  }, output);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return code;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    throw err;
  }
}
