/**
 * Every process we start (serve's render workers, and what a worker starts: Xvfb, ffmpeg and
 * ffprobe, the segment renderers, the espeak-ng child) is started here, tied to the process that
 * starts it: when that process dies, however it
 * dies, the kernel sends the child SIGKILL (PR_SET_PDEATHSIG, set by util-linux's `setpriv
 * --pdeathsig KILL`, which then execs the program in the same process, so the pid, the pipes and
 * the IPC channel are the child's own).
 *
 * Why this and not a process group: a SIGKILLed worker cannot clean up, so something else must.
 * A process group needs whoever started the worker to kill the group when it exits: serve's pool
 * in one shape, the kubelet in the other, a shell in `framewright render`, and nothing at all when
 * serve itself is killed. The death signal needs no one: it is set on each child, holds whoever
 * the worker's parent is, and chains (a segment renderer killed so kills its own encoder). Node
 * cannot call prctl itself, hence the tiny `setpriv` exec in front (about 2 ms more a start, measured;
 * util-linux is in every Debian image, ours included).
 *
 * Limits: a child started in the instant before `setpriv` sets the signal outlives a parent that
 * dies in that instant; the signal follows the parent *thread*, and every spawn here runs on the
 * main thread. Where `setpriv` is missing or cannot set the signal (not Linux, util-linux before
 * 2.33) children start as before, untied, and that is logged once on stderr.
 */
import { type ChildProcess, type ForkOptions, fork, type SpawnOptions, spawn, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

let setpriv: string | null | undefined;

/** The path of a `setpriv` that can set the death signal, or null; probed once. */
function tieProgram(): string | null {
  if (setpriv !== undefined) return setpriv;
  setpriv = null;
  if (process.platform === 'linux') {
    const found = onPath('setpriv', process.env.PATH);
    if (found && spawnSync(found, ['--pdeathsig', 'KILL', '--', found, '--version']).status === 0) {
      setpriv = found;
    }
  }
  if (!setpriv) {
    process.stderr.write(
      'framewright: setpriv --pdeathsig is not available: child processes outlive a killed parent\n',
    );
  }
  return setpriv;
}

/** `command` as an executable path (searched on PATH when it has no slash), or undefined. */
function onPath(command: string, pathVar: string | undefined): string | undefined {
  const candidates = command.includes('/')
    ? [command]
    : (pathVar ?? '').split(path.delimiter).map((dir) => path.join(dir || '.', command));
  for (const file of candidates) {
    try {
      accessSync(file, constants.X_OK);
      return path.resolve(file);
    } catch {}
  }
  return undefined;
}

/**
 * `spawn` with the child killed when this process dies. A program that is not found is spawned
 * directly, so it fails with the usual 'error' event (ENOENT), not with setpriv's exit 127.
 */
export function spawnTied(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  const tie = tieProgram();
  const program = tie ? onPath(command, (options.env ?? process.env).PATH) : undefined;
  if (!tie || !program) return spawn(command, args, options);
  return spawn(tie, ['--pdeathsig', 'KILL', '--', program, ...args], options);
}

/**
 * `fork` (a Node.js child with an IPC channel) with the child killed when this process dies. A
 * Node.js that is not found is forked directly, so it fails with 'error' (ENOENT), as spawnTied.
 */
export function forkTied(modulePath: string, args: readonly string[], options: ForkOptions): ChildProcess {
  const tie = tieProgram();
  const node = options.execPath ?? process.execPath;
  if (!tie || !onPath(node, (options.env ?? process.env).PATH)) return fork(modulePath, args, options);
  // fork runs `execPath ...execArgv modulePath ...args`: setpriv goes first and execs Node.
  return fork(modulePath, args, {
    ...options,
    execPath: tie,
    execArgv: ['--pdeathsig', 'KILL', '--', node, ...(options.execArgv ?? process.execArgv)],
  });
}
