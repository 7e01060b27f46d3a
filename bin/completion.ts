/**
 * `framewright completion bash|zsh`: a completion script generated from commander's command tree
 * (bin/commands.ts), so the commands, options and choices it offers are the parser's own. The
 * scripts are static (a Tab runs no Node): each walks the words before the cursor to the command
 * they name, then offers its subcommands, its options, an option's choices, or file names.
 */
import type { Argument, Command, Option } from 'commander';

/** One command of the tree, as completion sees it. */
interface Node {
  /** The command words after `framewright`, space-separated ('' for the program itself). */
  path: string;
  subcommands: { name: string; summary: string }[];
  options: { flags: string[]; description: string; takesValue: boolean; choices?: readonly string[] }[];
  /** Its first positional argument: completed from choices, or as a file name. */
  argument?: { choices?: readonly string[] };
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}

function optionOf(o: Option): Node['options'][number] {
  return {
    flags: [o.short, o.long].filter((f): f is string => f !== undefined),
    description: o.description,
    takesValue: o.required || o.optional,
    ...(o.argChoices ? { choices: o.argChoices } : {}),
  };
}

function argumentOf(a: Argument | undefined, helpFor: Command | undefined): Node['argument'] {
  // The `help [command]` command takes the name of one of its parent's commands.
  if (helpFor)
    return {
      choices: helpFor
        .createHelp()
        .visibleCommands(helpFor)
        .map((c) => c.name()),
    };
  if (!a) return undefined;
  return a.argChoices ? { choices: a.argChoices } : {};
}

/** Every command of the tree, the program first; `help` commands included (they list their siblings). */
export function commandNodes(program: Command): Node[] {
  const nodes: Node[] = [];
  const visit = (cmd: Command, path: string, helpFor?: Command) => {
    const help = cmd.createHelp();
    const subs = help.visibleCommands(cmd);
    nodes.push({
      path,
      subcommands: subs.map((c) => ({ name: c.name(), summary: c.summary() || firstLine(c.description()) })),
      options: help.visibleOptions(cmd).map(optionOf),
      ...(cmd.registeredArguments.length > 0 || helpFor
        ? { argument: argumentOf(cmd.registeredArguments[0], helpFor) }
        : {}),
    });
    for (const sub of subs) {
      // A `help` command (commander's own or the program's) completes its parent's commands.
      visit(sub, path ? `${path} ${sub.name()}` : sub.name(), sub.name() === 'help' ? cmd : undefined);
    }
  };
  visit(program, '');
  return nodes;
}

/** A single-quoted shell word (bash and zsh). */
const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** `case` patterns `'path|word'|...` for the given pairs. */
const patterns = (pairs: [string, string][]) => pairs.map(([p, w]) => q(`${p}|${w}`)).join('|');

/** The (path, word) pairs that step into a subcommand, and those that are an option taking a value. */
function walkPatterns(nodes: Node[]): { steps: string; valued: string } {
  const steps: [string, string][] = [];
  const valued: [string, string][] = [];
  for (const n of nodes) {
    for (const s of n.subcommands) steps.push([n.path, s.name]);
    for (const o of n.options) if (o.takesValue) for (const f of o.flags) valued.push([n.path, f]);
  }
  return { steps: patterns(steps), valued: patterns(valued) };
}

/** The option-value cases: choices offered, any other value left to file names. */
function valueCases(nodes: Node[], choices: (words: readonly string[]) => string, files: string): string[] {
  const lines: string[] = [];
  const free: [string, string][] = [];
  for (const n of nodes) {
    for (const o of n.options) {
      if (!o.takesValue) continue;
      const pairs = o.flags.map((f): [string, string] => [n.path, f]);
      if (o.choices) lines.push(`    ${patterns(pairs)}) ${choices(o.choices)}; return ;;`);
      else free.push(...pairs);
    }
  }
  if (free.length > 0) lines.push(`    ${patterns(free)}) ${files}; return ;;`);
  return lines;
}

function bashScript(nodes: Node[]): string {
  const { steps, valued } = walkPatterns(nodes);
  const words = (list: readonly string[]) => `COMPREPLY=($(compgen -W ${q(list.join(' '))} -- "$cur"))`;
  const commandCases = nodes.map((n) => {
    const opts = n.options.flatMap((o) => o.flags);
    // What a word that is not an option completes to: subcommands, an argument's choices, file
    // names (an argument without choices: COMPREPLY left empty, `complete -o default`), or options.
    const plain =
      n.subcommands.length > 0
        ? words(n.subcommands.map((s) => s.name))
        : n.argument?.choices
          ? words(n.argument.choices)
          : n.argument
            ? ':'
            : words(opts);
    return `    ${q(n.path)}) if [[ $cur == -* ]]; then ${words(opts)}; else ${plain}; fi ;;`;
  });
  return `# bash completion for framewright, generated from its command tree by \`framewright completion bash\`.
# Load it with: source <(framewright completion bash)
_framewright() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev= cmd= opt= i w
  COMPREPLY=()
  ((COMP_CWORD > 0)) && prev=\${COMP_WORDS[COMP_CWORD - 1]}
  # The command the words before the cursor name; an option's value is skipped.
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=\${COMP_WORDS[i]}
    case "$cmd|$w" in
    ${steps}) cmd=\${cmd:+$cmd }$w ;;
    ${valued}) ((i++)) ;;
    esac
  done
  # An option's value: --opt VALUE, or --opt=VALUE (bash splits the = off into a word of its own).
  opt=$prev
  if [[ $cur == = ]]; then
    cur=
  elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
    opt=\${COMP_WORDS[COMP_CWORD - 2]}
  fi
  case "$cmd|$opt" in
${valueCases(nodes, words, ':').join('\n')}
  esac
  case "$cmd" in
${commandCases.join('\n')}
  esac
}
complete -o default -F _framewright framewright
`;
}

function zshScript(nodes: Node[]): string {
  const { steps, valued } = walkPatterns(nodes);
  const described = (list: string[]) => `(${list.map(q).join(' ')})`;
  const commandCases = nodes.map((n) => {
    const subs = n.subcommands.map((s) => `${s.name}:${s.summary}`);
    const opts = n.options.flatMap((o) => o.flags.map((f) => `${f}:${o.description}`));
    const arg = n.argument?.choices
      ? ` choices=(${n.argument.choices.map(q).join(' ')})`
      : n.argument
        ? ' files=1'
        : '';
    return `    (${q(n.path)}) subs=${described(subs)} opts=${described(opts)}${arg} ;;`;
  });
  return `#compdef framewright
# zsh completion for framewright, generated from its command tree by \`framewright completion zsh\`.
# Install it: framewright completion zsh > "\${fpath[1]}/_framewright", then compinit (or source it
# after compinit).
_framewright() {
  local cmd= opt= w cur=\${words[CURRENT]} files=
  local -i i
  local -a subs opts choices
  # The command the words before the cursor name; an option's value is skipped.
  for ((i = 2; i < CURRENT; i++)); do
    w=\${words[i]}
    case "$cmd|$w" in
    (${steps}) cmd=\${cmd:+$cmd }$w ;;
    (${valued}) ((i++)) ;;
    esac
  done
  # An option's value: --opt VALUE or --opt=VALUE.
  opt=\${words[CURRENT - 1]}
  if [[ $cur == -*=* ]]; then
    opt=\${cur%%=*}
    compset -P '*='
  fi
  case "$cmd|$opt" in
${valueCases(nodes, (list) => `compadd -- ${list.map(q).join(' ')}`, '_files')
  .map((l) => l.replace(/^ {4}/, '    ('))
  .join('\n')}
  esac
  case "$cmd" in
${commandCases.join('\n')}
  esac
  if [[ $cur == -* ]]; then
    _describe -t options option opts
  elif (( $#subs )); then
    _describe -t commands command subs
  elif (( $#choices )); then
    compadd -- $choices
  elif [[ -n $files ]]; then
    _files
  else
    _describe -t options option opts
  fi
}
if [[ $funcstack[1] == _framewright ]]; then
  _framewright "$@"
else
  compdef _framewright framewright
fi
`;
}

export function completionScript(program: Command, shell: 'bash' | 'zsh'): string {
  const nodes = commandNodes(program);
  return shell === 'bash' ? bashScript(nodes) : zshScript(nodes);
}
