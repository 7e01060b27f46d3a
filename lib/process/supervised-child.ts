/**
 * A long-lived Node.js child process that answers calls over IPC: serve's render workers, a
 * worker's segment renderers and its espeak-ng child. One supervisor for all of them, so each
 * does not grow its own handling of a failed start, a crash, stderr and abort.
 *
 * - Started with `forkTied` (lib/process/tied-child.ts): it dies with this process, however this
 *   process dies.
 * - States `starting` -> `ready` (the child's `answerCalls`, lib/process/child-calls.ts, said so)
 *   -> `exited` (`exit`: code, signal, the end of its stderr, or the error that kept it from
 *   starting). Every path ends in `exited`: a failed start ('error' without a pid, ENOENT, or an
 *   entry that could not be built) is an exit too, and a child whose channel has closed is given
 *   DISCONNECT_GRACE_MS to exit, then killed.
 * - `call` sends a request with its own id; the child's events and its one reply carry that id,
 *   so calls may run at once. Calls made while it starts are sent when it is ready.
 * - When the child exits, every call still waiting is rejected with a ChildExitedError naming the
 *   child, its exit code or signal and its stderr tail. An AbortSignal (the child's or a call's)
 *   kills the child and rejects with the signal's reason. Nothing here is left as an unhandled
 *   rejection: `ready` may be ignored, `exited` never rejects.
 */
import type { ChildProcess } from 'node:child_process';
import type { FromChild, ToChild, WireError } from './child-calls.ts';
import { forkTied } from './tied-child.ts';

export type ChildState = 'starting' | 'ready' | 'exited';

/** How a child ended. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The end of its stderr (at most `stderrChars` characters). */
  stderr: string;
  /** Why it never started: the spawn's error (ENOENT...), its entry's build, or a kill before it started. */
  error?: Error;
}

/** `exit 3`, `SIGKILL` or `could not start: spawn node ENOENT`. */
export function describeExit(exit: ChildExit): string {
  if (exit.error) return `could not start: ${exit.error.message}`;
  return exit.signal ?? `exit ${exit.code}`;
}

/** A call that the child did not answer because it exited (or never started). */
export class ChildExitedError extends Error {
  readonly child: string;
  readonly exit: ChildExit;
  constructor(child: string, pid: number | undefined, exit: ChildExit) {
    const tail = exit.stderr.trim();
    super(
      `${child}${pid === undefined ? '' : ` (pid ${pid})`} exited (${describeExit(exit)}) before answering${tail ? `: ${tail}` : ''}`,
      exit.error ? { cause: exit.error } : undefined,
    );
    this.name = 'ChildExitedError';
    this.child = child;
    this.exit = exit;
  }
}

/** A call the child answered with an error: its message, and its code and path when it had them. */
export class ChildCallError extends Error {
  readonly code: string | undefined;
  readonly path: string | undefined;
  constructor(error: WireError) {
    super(error.message);
    this.name = 'ChildCallError';
    this.code = error.code;
    this.path = error.path;
  }
}

export interface SupervisedChildOptions {
  /** Names the child in errors: 'segment renderer', 'espeak-ng child'. */
  name: string;
  /** The module it runs, or its path to come (a bundled entry, lib/bundled-entry.ts). */
  module: string | Promise<string>;
  args?: readonly string[];
  execArgv?: string[];
  /** The Node.js to run (default: this one). */
  execPath?: string;
  env?: NodeJS.ProcessEnv;
  serialization?: 'json' | 'advanced';
  /** How much of the end of its stderr is kept (default 4000 characters). */
  stderrChars?: number;
  /** Aborting kills the child and rejects every waiting call with the reason. */
  signal?: AbortSignal;
}

export interface CallOptions<Ev> {
  /** The call's events (progress), in the order the child sent them. */
  onEvent?: (event: Ev) => void;
  /** Aborting rejects the call with the reason and kills the child: a call cannot be cut short alone. */
  signal?: AbortSignal;
}

interface Pending<Res, Ev> {
  resolve: (value: Res) => void;
  reject: (err: unknown) => void;
  onEvent: ((event: Ev) => void) | undefined;
  /** Removes the call's abort listener. */
  done: () => void;
}

/** After 'exit', how long the rest of stderr and of the channel's messages may take to arrive. */
const CLOSE_GRACE_MS = 500;
/** A child whose channel has closed must exit within this, or it is killed. */
const DISCONNECT_GRACE_MS = 5_000;

export class SupervisedChild<Req, Res, Ev = never> {
  readonly name: string;
  /** Resolves when the child is ready; rejects (ChildExitedError) when it exits first. */
  readonly ready: Promise<void>;
  /** Resolves when the child has exited, however it ended. */
  readonly exited: Promise<ChildExit>;

  #state: ChildState = 'starting';
  #child: ChildProcess | undefined;
  #exit: ChildExit | undefined;
  #stderr = '';
  readonly #stderrChars: number;
  readonly #pending = new Map<number, Pending<Res, Ev>>();
  /** Calls made while it starts, sent when it is ready. */
  #unsent: ToChild<Req>[] = [];
  #nextId = 1;
  #aborted: { reason: unknown } | undefined;
  #disconnectTimer: NodeJS.Timeout | undefined;
  #markReady: () => void = () => {};
  #failReady: (err: Error) => void = () => {};
  #markExited: (exit: ChildExit) => void = () => {};
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort = () => this.#abort(this.#signal?.reason);

  constructor(options: SupervisedChildOptions) {
    this.name = options.name;
    this.#stderrChars = options.stderrChars ?? 4000;
    this.ready = new Promise<void>((resolve, reject) => {
      this.#markReady = resolve;
      this.#failReady = reject;
    });
    this.ready.catch(() => {});
    this.exited = new Promise<ChildExit>((resolve) => {
      this.#markExited = resolve;
    });
    this.#signal = options.signal;
    if (this.#signal?.aborted) {
      this.#abort(this.#signal.reason);
      return;
    }
    this.#signal?.addEventListener('abort', this.#onAbort, { once: true });
    if (typeof options.module === 'string') this.#start(options.module, options);
    else {
      options.module.then(
        (entry) => this.#start(entry, options),
        (err: unknown) => this.#finish({ code: null, signal: null, stderr: '', error: asError(err) }),
      );
    }
  }

  get state(): ChildState {
    return this.#state;
  }

  /** How it ended; undefined until it has. */
  get exit(): ChildExit | undefined {
    return this.#exit;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Ready, and its channel open: a call now is sent at once. */
  get connected(): boolean {
    return this.#state === 'ready' && this.#child?.connected === true;
  }

  /** The end of its stderr so far. */
  stderrTail(): string {
    return this.#stderr;
  }

  /** Sends `request`; resolves with the child's answer (see the class's comment for how it fails). */
  call(request: Req, options: CallOptions<Ev> = {}): Promise<Res> {
    return new Promise<Res>((resolve, reject) => {
      const { signal, onEvent } = options;
      if (this.#aborted) return reject(this.#aborted.reason);
      if (this.#exit) return reject(new ChildExitedError(this.name, this.pid, this.#exit));
      if (this.#state === 'ready' && !this.#child?.connected) {
        return reject(new Error(`${this.name}: its channel is closed; it is exiting`));
      }
      if (signal?.aborted) {
        reject(signal.reason);
        this.kill();
        return;
      }
      const id = this.#nextId++;
      const onAbort = () => {
        if (this.#pending.delete(id)) reject(signal?.reason);
        this.kill();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(id, {
        resolve,
        reject,
        onEvent,
        done: () => signal?.removeEventListener('abort', onAbort),
      });
      const message: ToChild<Req> = { fw: 'call', id, request };
      if (this.#state === 'ready') this.#send(message);
      else this.#unsent.push(message);
    });
  }

  /** Kills the child (SIGKILL unless told); a child not started yet never starts. */
  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (this.#exit) return;
    if (!this.#child) {
      this.#finish({ code: null, signal: null, stderr: '', error: new Error('killed before it started') });
      return;
    }
    this.#child.kill(signal);
  }

  /**
   * Closes the channel: a child answering calls (`answerCalls`) drops what it has not started and
   * exits once it has answered what runs. A child not started yet never starts.
   */
  disconnect(): void {
    if (this.#exit) return;
    if (!this.#child) {
      this.#finish({ code: null, signal: null, stderr: '', error: new Error('closed before it started') });
      return;
    }
    if (this.#child.connected) this.#child.disconnect();
  }

  #start(entry: string, options: SupervisedChildOptions): void {
    if (this.#exit) return;
    let child: ChildProcess;
    try {
      child = forkTied(entry, options.args ?? [], {
        execArgv: options.execArgv ?? [],
        ...(options.execPath ? { execPath: options.execPath } : {}),
        env: options.env ?? process.env,
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
        serialization: options.serialization ?? 'json',
      });
    } catch (err) {
      this.#finish({ code: null, signal: null, stderr: '', error: asError(err) });
      return;
    }
    this.#child = child;
    child.stderr?.on('data', (d: Buffer) => this.#note(d.toString()));
    child.on('message', (m: unknown) => this.#onMessage(m as FromChild<Res, Ev>));
    // Always listened to: without a listener an 'error' event would be an uncaught exception here.
    child.on('error', (err) => {
      if (child.pid === undefined) this.#finish({ code: null, signal: null, stderr: this.#stderr, error: err });
      else this.#note(`\n[${this.name}] ${err.message}\n`);
    });
    child.on('disconnect', () => {
      if (this.#exit) return;
      // Unreferenced: the child's own handle keeps this process up while it runs.
      this.#disconnectTimer = setTimeout(() => child.kill('SIGKILL'), DISCONNECT_GRACE_MS).unref();
    });
    // The exit is final once stderr and the channel are drained too (the child's last words and
    // its last answers). Not 'close': it never comes after this side closed the channel. A
    // grandchild holding the pipe could hold stderr open: the exit starts a timer.
    let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let stderrOpen = child.stderr !== null;
    let closeTimer: NodeJS.Timeout | undefined;
    const ended = (force: boolean) => {
      if (!exited || (!force && (stderrOpen || child.connected))) return;
      clearTimeout(closeTimer);
      this.#finish({ code: exited.code, signal: exited.signal, stderr: this.#stderr });
    };
    child.stderr?.once('close', () => {
      stderrOpen = false;
      ended(false);
    });
    child.on('disconnect', () => ended(false));
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      closeTimer = setTimeout(() => ended(true), CLOSE_GRACE_MS);
      ended(false);
    });
  }

  #note(text: string): void {
    this.#stderr = (this.#stderr + text).slice(-this.#stderrChars);
  }

  #send(message: ToChild<Req>): void {
    try {
      // A send that fails (the channel closed meanwhile) waits for the exit, which answers the call.
      this.#child?.send(message, undefined, {}, (err) => {
        if (err) this.#note(`\n[${this.name}] sending a call failed: ${err.message}\n`);
      });
    } catch (err) {
      // A request the channel cannot serialise fails alone.
      const call = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      call?.done();
      call?.reject(err);
    }
  }

  #onMessage(message: FromChild<Res, Ev>): void {
    if (message?.fw === 'ready') {
      if (this.#state !== 'starting') return;
      this.#state = 'ready';
      this.#markReady();
      const unsent = this.#unsent;
      this.#unsent = [];
      for (const m of unsent) if (this.#pending.has(m.id)) this.#send(m);
    } else if (message?.fw === 'event') {
      const call = this.#pending.get(message.id);
      try {
        call?.onEvent?.(message.event);
      } catch (err) {
        // The caller's own handler threw: its call fails with that, not this process.
        this.#pending.delete(message.id);
        call?.done();
        call?.reject(err);
      }
    } else if (message?.fw === 'reply') {
      const call = this.#pending.get(message.id);
      if (!call) return;
      this.#pending.delete(message.id);
      call.done();
      if (message.ok) call.resolve(message.value);
      else call.reject(new ChildCallError(message.error));
    }
  }

  #abort(reason: unknown): void {
    this.#aborted = { reason };
    for (const call of this.#pending.values()) {
      call.done();
      call.reject(reason);
    }
    this.#pending.clear();
    this.kill();
  }

  #finish(exit: ChildExit): void {
    if (this.#exit) return;
    this.#exit = exit;
    this.#state = 'exited';
    clearTimeout(this.#disconnectTimer);
    this.#signal?.removeEventListener('abort', this.#onAbort);
    const err = new ChildExitedError(this.name, this.pid, exit);
    this.#failReady(err);
    for (const call of this.#pending.values()) {
      call.done();
      call.reject(err);
    }
    this.#pending.clear();
    this.#unsent = [];
    this.#markExited(exit);
  }
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
