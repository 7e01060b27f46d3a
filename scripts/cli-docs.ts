/**
 * docs/cli.md: the help of every command, as `framewright <command> --help` prints it on a pipe
 * (80 columns), from the command tree itself (bin/commands.ts). `npx tsx scripts/cli-docs.ts`
 * writes it; test/api/cli-help.test.ts fails while the committed file differs from what this makes.
 */
import { realpathSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { buildProgram, runCli } from '../bin/commands.ts';
import { commandNodes } from '../bin/completion.ts';

/** The words of every command, program first, in the tree's order (`help` commands left out). */
export function commandPaths(): string[][] {
  return commandNodes(buildProgram(() => {}))
    .map((n) => (n.path === '' ? [] : n.path.split(' ')))
    .filter((words) => words.at(-1) !== 'help');
}

/** What `framewright ...words --help` prints on stdout, 80 columns wide. */
export async function helpOf(words: string[]): Promise<string> {
  let out = '';
  const code = await runCli([...words, '--help'], {
    writeOut: (s) => {
      out += s;
    },
    writeErr: (s) => {
      throw new Error(`framewright ${words.join(' ')} --help wrote to stderr: ${s}`);
    },
    helpWidth: 80,
  });
  if (code !== 0) throw new Error(`framewright ${words.join(' ')} --help exited ${code}`);
  return out;
}

export async function cliDocs(): Promise<string> {
  const paths = commandPaths();
  const title = (words: string[]) => ['framewright', ...words].join(' ');
  const anchor = (words: string[]) => title(words).replaceAll(' ', '-');
  const sections: string[] = [];
  for (const words of paths) {
    sections.push(`## \`${title(words)}\`\n\n\`\`\`text\n${(await helpOf(words)).trimEnd()}\n\`\`\`\n`);
  }
  return `# Command line

<!-- Generated from the commands' own help (bin/commands.ts) by \`npx tsx scripts/cli-docs.ts\`;
test/api/cli-help.test.ts fails while this file differs from what it prints. Do not edit by hand. -->

\`framewright\` (\`bin/framewright\` in a checkout, \`framewright\` on the images' PATH) is the one
command line of every deployable. Each command below prints this help with \`--help\` (or
\`framewright help <command>\`) and exits 0; \`framewright --version\` prints the version. An unknown
command or option, a missing required option or a value out of range prints the error and the
command's help on stderr and exits 2. Configuration comes from the environment (README.md,
"Configuration"); the options are only what differs between runs.

Shell completion, generated from the same command tree: \`source <(framewright completion bash)\`,
or for zsh \`framewright completion zsh > "\${fpath[1]}/_framewright"\` and then \`compinit\`.

${paths.map((w) => `- [\`${title(w)}\`](#${anchor(w)})`).join('\n')}

${sections.join('\n')}`;
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const target = fileURLToPath(new URL('../docs/cli.md', import.meta.url));
  await writeFile(target, await cliDocs());
  process.stdout.write(`wrote ${target}\n`);
}
