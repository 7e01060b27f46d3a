/**
 * `framewright <command>`: one CLI for every deployable. The commands, their options and their
 * help are declared in bin/commands.ts; each command's module is loaded only when it runs, so
 * `framewright render` never loads Fastify and `serve` never loads three.js. `framewright
 * completion bash|zsh` prints a completion script generated from the same tree (bin/completion.ts).
 *
 * The parser is commander (MIT, no dependencies, ~240 kB unpacked; the most used Node argument
 * parser, maintained, releases every few months): nested subcommands with lazy `action`s,
 * generated `--help` per command and a `help` command, `--version`, required options, choices
 * and custom option parsers, and `exitOverride`/`configureOutput`, which let us own the exit
 * statuses (usage errors 2) and test the parser in-process. It has no completion of its own;
 * yargs has one, but brings six dependencies and answers each Tab by running the program (here a
 * Node start, ~0.3-1 s), and citty has neither completion nor exit control. Our completion reads
 * commander's command tree, so there is no second list of commands to keep.
 */
import { runCli } from './commands.ts';

runCli(process.argv.slice(2)).then(
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
