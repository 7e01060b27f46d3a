/**
 * The command line's surface (bin/commands.ts): every command's help, --version, usage errors
 * (exit 2, the usage on stderr, never a stack trace), the shell completion scripts, docs/cli.md,
 * and that a command loads only its own modules. The parser runs in-process for the per-command
 * checks (runCli is what bin/cli.ts runs); each behaviour is also seen once through bin/framewright.
 */
import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Command } from 'commander';
import { buildProgram, runCli } from '../../bin/commands.ts';
import { ERROR_CATALOG } from '../../lib/errors.ts';
import { cliDocs, commandPaths, helpOf } from '../../scripts/cli-docs.ts';

const BIN = fileURLToPath(new URL('../../bin/framewright', import.meta.url));
const REFUSE = fileURLToPath(new URL('./refuse-packages.mjs', import.meta.url));
const VERSION = (
  JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
const STACK_LINE = /^\s+at /m;

/** In-process: the exit code and what the parser wrote. */
async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    writeOut: (s) => {
      out += s;
    },
    writeErr: (s) => {
      err += s;
    },
    helpWidth: 80,
  });
  return { code, out, err };
}

/** Through bin/framewright, as a person runs it (stdin closed, stdout and stderr pipes). */
function spawnCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

/** The command named by `words` in a fresh tree. */
function commandAt(words: string[]): Command {
  let cmd = buildProgram(() => {});
  for (const w of words) cmd = cmd.commands.find((c) => c.name() === w) as Command;
  return cmd;
}

/** Arguments that satisfy the command's required options and arguments (so another error is the one seen). */
function requiredArgs(words: string[]): string[] {
  const cmd = commandAt(words);
  const args = cmd.registeredArguments.filter((a) => a.required).map((a) => a.argChoices?.[0] ?? 'movie.json');
  for (const o of cmd.options) if (o.mandatory) args.push(o.long as string, o.argChoices?.[0] ?? '1');
  return args;
}

const title = (words: string[]) => ['framewright', ...words].join(' ');

test('the command tree: every command and subcommand', () => {
  assert.deepEqual(
    commandPaths().map((w) => w.join(' ')),
    [
      '',
      'serve',
      'operator',
      'render',
      'worker',
      'voices',
      'accounts',
      'accounts create',
      'accounts set-plan',
      'keys',
      'keys create',
      'keys list',
      'keys roll',
      'keys revoke',
      'credits',
      'credits grant',
      'webhooks',
      'webhooks secret',
      'webhooks rotate-secret',
      'bench',
      'bench movie',
      'bench api',
      'bench render',
      'bench e2e',
      'bench operator',
      'bench leases',
      'bench gpu-check',
      'bench player',
      'bench parallel',
      'completion',
    ],
  );
});

describe('every command, in-process', () => {
  for (const words of commandPaths()) {
    test(`${title(words)}: --help and -h print its usage and exit 0; help names it too`, async () => {
      const help = await cli([...words, '--help']);
      assert.equal(help.code, 0, help.err);
      assert.equal(help.err, '');
      assert.ok(help.out.startsWith(`Usage: ${title(words)} `), help.out);
      assert.deepEqual(await cli([...words, '-h']), help);
      // `framewright help accounts create`, and `framewright accounts help create`.
      assert.deepEqual(await cli(['help', ...words]), help);
      if (words.length >= 2) assert.deepEqual(await cli([...words.slice(0, -1), 'help', words.at(-1) as string]), help);
    });

    test(`${title(words)}: an unknown option exits 2 with the usage on stderr`, async () => {
      const r = await cli([...words, ...requiredArgs(words), '--no-such-option']);
      assert.equal(r.code, 2);
      assert.equal(r.out, '');
      assert.ok(r.err.startsWith("error: unknown option '--no-such-option'\n"), r.err);
      assert.ok(r.err.includes(`\nUsage: ${title(words)} `), r.err);
      assert.doesNotMatch(r.err, STACK_LINE);
    });

    const cmd = commandAt(words);
    for (const o of cmd.options.filter((o) => o.mandatory)) {
      test(`${title(words)}: without ${o.long} exits 2 with the usage on stderr`, async () => {
        const args = requiredArgs(words);
        const at = args.indexOf(o.long as string);
        args.splice(at, 2);
        const r = await cli([...words, ...args]);
        assert.equal(r.code, 2);
        assert.ok(r.err.startsWith(`error: required option '${o.flags}' not specified\n`), r.err);
        assert.ok(r.err.includes(`\nUsage: ${title(words)} `), r.err);
      });
    }
  }
});

describe('usage errors, in-process', () => {
  const cases: [string[], RegExp][] = [
    [['nope'], /^error: unknown command 'nope'\n/],
    [['help', 'accounts', 'nope'], /^error: unknown command 'accounts nope'\n/],
    [['accounts', 'nope'], /^error: unknown command 'nope'\n/],
    [['render', '-o', 'x.mp4'], /^error: missing required argument 'movie'\n/],
    [['render', 'a.json', 'b.json', '-o', 'x.mp4'], /^error: too many arguments for 'render'/],
    [
      ['render', 'a.json', '-o', 'x.mp4', '--parallel', '65'],
      /argument '65' is invalid\. Expected an integer from 1 to 64\./,
    ],
    [
      ['render', 'a.json', '-o', 'x.mp4', '-p', 'two'],
      /argument 'two' is invalid\. Expected an integer from 1 to 64\./,
    ],
    [['accounts', 'create', '--plan', 'gold'], /Allowed choices are trial, starter, pro, studio\./],
    [
      ['accounts', 'create', '--plan', 'pro', '--credits', '-1'],
      /argument '-1' is invalid\. Expected an integer >= 0\./,
    ],
    [['accounts', 'create', '--plan', 'pro', '--mode', 'demo'], /Allowed choices are live, test\./],
    [['keys', 'list', '--account', ''], /argument '' is invalid\. Expected a value\./],
    [
      ['credits', 'grant', '--account', 'acc_x', '--amount', '0'],
      /argument '0' is invalid\. Expected an integer >= 1\./,
    ],
    [['worker', '--step', 'join'], /^error: --step and --segments go with --render NAME\.\n/],
    [['worker', '--render', 'r', '--segments', '65'], /argument '65' is invalid\. Expected an integer from 1 to 64\./],
    [['bench', 'api', '--backend', 'mysql'], /Allowed choices are pglite, postgres\./],
    [['completion', 'fish'], /Allowed choices are bash, zsh\./],
  ];
  for (const [argv, message] of cases) {
    test(`framewright ${argv.join(' ')}: exit 2, the error and the usage on stderr`, async () => {
      const r = await cli(argv);
      assert.equal(r.code, 2, r.err);
      assert.equal(r.out, '');
      assert.match(r.err, message);
      assert.match(r.err, /\nUsage: framewright/);
      assert.doesNotMatch(r.err, STACK_LINE);
    });
  }

  test('no command at all: the usage on stderr, exit 2', async () => {
    const r = await cli([]);
    assert.equal(r.code, 2);
    assert.equal(r.err, await helpOf([]));
  });

  test('--version and -V print the version in package.json', async () => {
    for (const flag of ['--version', '-V'])
      assert.deepEqual(await cli([flag]), { code: 0, out: `${VERSION}\n`, err: '' });
  });
});

describe('through bin/framewright', () => {
  test('help, --version and usage errors as a person sees them (exit codes, streams, no stack trace)', async () => {
    // The commands the issue found failing (a stack trace, "Unknown subcommand"), and one of each kind.
    const helps = [[], ['serve'], ['operator'], ['worker'], ['voices'], ['accounts'], ['keys'], ['credits']];
    helps.push(['render'], ['webhooks'], ['accounts', 'create'], ['keys', 'roll'], ['bench', 'api']);
    const [helped, helpCommand, version, short, unknownOption, unknownCommand, missing, benchUnknown] =
      await Promise.all([
        Promise.all(helps.map((w) => spawnCli([...w, '--help']))),
        spawnCli(['help', 'accounts', 'create']),
        spawnCli(['--version']),
        spawnCli(['-V']),
        spawnCli(['serve', '--port', '8080']),
        spawnCli(['srve']),
        spawnCli(['accounts', 'create', '--credits', '5']),
        spawnCli(['bench', 'api', '--seconds=3']),
      ]);
    for (const [i, words] of helps.entries()) {
      const r = helped[i]!;
      assert.equal(r.code, 0, `${title(words)} --help: ${r.err}`);
      assert.equal(r.out, await helpOf(words), `${title(words)} --help prints what docs/cli.md shows`);
      assert.equal(r.err, '');
    }
    assert.equal(helpCommand.code, 0);
    assert.equal(helpCommand.out, await helpOf(['accounts', 'create']));
    for (const r of [version, short]) assert.deepEqual(r, { code: 0, out: `${VERSION}\n`, err: '' });

    const usageErrors: [typeof missing, RegExp, string[]][] = [
      [unknownOption, /^error: unknown option '--port'\n/, ['serve']],
      [unknownCommand, /^error: unknown command 'srve'\n\(Did you mean serve\?\)\n/, []],
      [missing, /^error: required option '--plan <plan>' not specified\n/, ['accounts', 'create']],
      [benchUnknown, /^error: unknown option '--seconds=3'\n/, ['bench', 'api']],
    ];
    for (const [r, message, words] of usageErrors) {
      assert.equal(r.code, 2, r.err);
      assert.equal(r.out, '');
      assert.match(r.err, message);
      assert.ok(r.err.endsWith(await helpOf(words)), `the usage of ${title(words)} follows:\n${r.err}`);
      assert.doesNotMatch(r.err, STACK_LINE);
    }
  });

  test('docs/cli.md is current (regenerate: npx tsx scripts/cli-docs.ts)', async () => {
    const committed = await readFile(new URL('../../docs/cli.md', import.meta.url), 'utf8');
    assert.equal(committed, await cliDocs());
  });
});

describe('a command loads only its own modules', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fw-cli-lazy-'));
    await writeFile(
      path.join(dir, 'empty.json'),
      JSON.stringify({ schema: 'v1', width: 320, height: 180, scenes: [] }),
    );
  });
  after(() => rm(dir, { recursive: true, force: true }));

  /** Runs bin/framewright with imports of `packages` refused (test/api/refuse-packages.mjs). */
  const refusing = (packages: string[], args: string[], env: NodeJS.ProcessEnv = {}) =>
    spawnCli(args, {
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${REFUSE}`,
      FW_REFUSE_PACKAGES: packages.join(','),
      LOG_LEVEL: 'info',
      ...env,
    });

  test('render without Fastify, serve without three.js (and the guard refuses what a command loads)', async () => {
    const movie = path.join(dir, 'empty.json');
    const out = path.join(dir, 'out.mp4');
    // serve fails on its PORT after loading its modules; render on the document after loading its.
    const badPort = { PORT: 'not-a-port', DATA_DIR: dir, DATABASE_URL: '' };
    const [render, serve, renderNoSharp, serveNoFastify] = await Promise.all([
      refusing(['fastify'], ['render', movie, '-o', out]),
      refusing(['three'], ['serve'], badPort),
      refusing(['sharp'], ['render', movie, '-o', out]),
      refusing(['fastify'], ['serve'], badPort),
    ]);
    assert.equal(render.code, ERROR_CATALOG.VALIDATION_ERROR.exit, render.err);
    assert.match(render.err, /VALIDATION_ERROR/);
    assert.doesNotMatch(render.err, /refused package/);
    assert.equal(serve.code, 1, serve.err);
    assert.match(serve.err + serve.out, /PORT/);
    assert.doesNotMatch(serve.err + serve.out, /refused package/);
    // The guard works: each command does load the package refused here.
    assert.match(renderNoSharp.err, /refused package sharp/);
    assert.match(serveNoFastify.err + serveNoFastify.out, /refused package fastify/);
  });
});

describe('shell completion, generated from the command tree', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fw-completion-'));
    for (const shell of ['bash', 'zsh']) {
      const r = await spawnCli(['completion', shell]);
      assert.equal(r.code, 0, r.err);
      await writeFile(path.join(dir, `framewright.${shell}`), r.out);
    }
  });
  after(() => rm(dir, { recursive: true, force: true }));

  /** [the words typed, the cursor on the last one] -> what is offered. */
  const cases: [string[], string[]][] = [
    [
      ['framewright', ''],
      ['serve', 'operator', 'render', 'worker', 'voices', 'accounts', 'keys', 'credits'],
    ],
    [['framewright', 'ac'], ['accounts']],
    [
      ['framewright', '--'],
      ['--version', '--help'],
    ],
    [
      ['framewright', 'accounts', ''],
      ['create', 'set-plan', 'help'],
    ],
    [
      ['framewright', 'accounts', 'create', '--'],
      ['--plan', '--credits', '--name', '--mode', '--json', '--help'],
    ],
    [
      ['framewright', 'accounts', 'create', '--plan', ''],
      ['trial', 'starter', 'pro', 'studio'],
    ],
    [
      ['framewright', 'accounts', 'create', '--plan', 's'],
      ['starter', 'studio'],
    ],
    [['framewright', 'accounts', 'create', '--name', 'keys', '--m'], ['--mode']],
    [
      ['framewright', 'keys', 'roll', '--'],
      ['--key', '--json', '--help'],
    ],
    [
      ['framewright', 'render', 'movie.json', '-'],
      ['-o', '--output', '-p', '--parallel', '--json', '--draft'],
    ],
    [
      ['framewright', 'bench', ''],
      ['movie', 'api', 'render', 'e2e', 'operator', 'leases', 'parallel', 'help'],
    ],
    [
      ['framewright', 'bench', 'api', '--backend', ''],
      ['pglite', 'postgres'],
    ],
    [
      ['framewright', 'completion', ''],
      ['bash', 'zsh'],
    ],
    [['framewright', 'help', 'cr'], ['credits']],
  ];
  const complete = (offered: string[], want: string[], words: string[]) => {
    for (const w of want) assert.ok(offered.includes(w), `${words.join(' ')}<Tab>: ${w} not in ${offered.join(' ')}`);
  };

  test('bash: COMPREPLY for commands, options and choices; file names for a movie', async () => {
    const script = [
      `source ${path.join(dir, 'framewright.bash')}`,
      'complete -p framewright',
      `t() { COMP_WORDS=("$@"); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _framewright; echo "\${COMPREPLY[*]}"; }`,
      ...cases.map(([words]) => `t ${words.map((w) => `'${w}'`).join(' ')}`),
      // --plan=s: bash splits the = into a word of its own.
      't framewright accounts create --plan = s',
      "t framewright render ''",
    ].join('\n');
    const { stdout } = await promisify(execFile)('bash', ['--norc', '--noprofile', '-c', script]);
    const lines = stdout.split('\n');
    assert.equal(lines[0], 'complete -o default -F _framewright framewright');
    for (const [i, [words, want]] of cases.entries()) {
      const offered = lines[i + 1]!.split(' ').filter(Boolean);
      complete(offered, want, words);
      // Exactly the candidates that start with what is typed.
      const typed = words.at(-1) as string;
      assert.ok(
        offered.every((o) => o.startsWith(typed)),
        `${words.join(' ')}: ${offered.join(' ')}`,
      );
    }
    assert.equal(lines[cases.length + 1], 'starter studio');
    // A movie file: nothing offered, so bash falls back to file names (-o default).
    assert.equal(lines[cases.length + 2], '');
  });

  const noZsh =
    spawnSync('zsh', ['--version']).status === 0 ? false : 'zsh is not installed (scripts/install.sh installs it)';

  test('zsh: loads under compinit, registers _framewright, offers commands, options and choices', {
    skip: noZsh,
  }, async () => {
    // compadd, _describe and _files are what a completion function hands its candidates to;
    // here they print them. The function itself, the words and CURRENT are the real ones.
    const script = [
      'autoload -Uz compinit && compinit -u -D',
      `source ${path.join(dir, 'framewright.zsh')}`,
      'print -r -- "$_comps[framewright]"',
      `_describe() { local -a list; list=("\${(@P)4}"); print -r -- \${(j: :)\${(@)list%%:*}}; }`,
      'compadd() { [[ $1 == -- ]] && shift; print -r -- "$*"; }',
      '_files() { print -r -- "<files>"; }',
      'compset() { return 0; }',
      't() { local -a words; words=("$@"); local -i CURRENT=$#words; _framewright; }',
      ...cases.map(([words]) => `t ${words.map((w) => `'${w}'`).join(' ')}`),
      "t framewright accounts create '--plan=s'",
      "t framewright render ''",
    ].join('\n');
    const { stdout } = await promisify(execFile)('zsh', ['-f', '-c', script]);
    const lines = stdout.split('\n');
    assert.equal(lines[0], '_framewright');
    for (const [i, [words, want]] of cases.entries()) complete(lines[i + 1]!.split(' '), want, words);
    assert.equal(lines[cases.length + 1], 'trial starter pro studio');
    assert.equal(lines[cases.length + 2], '<files>');
  });

  test('zsh: a real interactive shell lists the candidates on Tab (zsh/zpty)', {
    skip: noZsh,
    timeout: 60_000,
  }, async () => {
    // An interactive zsh on a pseudo-terminal with the script loaded: typed words, then Tab; the
    // listing is read until it shows what is expected (the test times out otherwise).
    const script = [
      'zmodload zsh/zpty',
      "zpty z 'zsh -f -i'",
      `zpty -w z 'PS1="READY> "; autoload -Uz compinit; compinit -u -D; source ${path.join(dir, 'framewright.zsh')}'`,
      "zpty -r z out '*READY> *'",
      "zpty -w -n z $'framewright accounts create --plan \\t'",
      "zpty -r z out '*studio*' && print -r -- PLAN-LISTED",
      "zpty -w -n z $'\\C-u'",
      "zpty -w -n z $'framewright keys \\t'",
      'zpty -r z out \'*roll*-- Replace a key*\' && print -r -- KEYS-LISTED && print -r -- "$out"',
      'zpty -d z',
    ].join('\n');
    const { stdout } = await promisify(execFile)('zsh', ['-f', '-c', script], { timeout: 50_000 });
    assert.match(stdout, /PLAN-LISTED/);
    assert.match(stdout, /KEYS-LISTED/);
    // The listing shows the subcommands with their descriptions.
    assert.match(stdout, /roll\s+-- Replace a key/);
  });
});
