import type { ChildProcess } from 'node:child_process';
import { bundledEntry } from '../lib/bundled-entry.ts';
import { AppError, isErrorCode } from '../lib/errors.ts';
import { ownModule } from '../lib/module-path.ts';
import type { SegmentJob, SegmentStats } from './render-segment.ts';
import type { FromChild, ToChild } from './segment-child.ts';
import { forkTied } from './tied-child.ts';

const CHILD = ownModule('./segment-child.ts', import.meta.url);

/**
 * A segment renderer process, started before its job is known: loading three.js and headless-gl
 * costs CPU time, spent while the parent still prepares assets and speech. Its entry runs bundled
 * to plain JavaScript (lib/bundled-entry.ts), without the TypeScript loader. `render` sends the job; `kill` ends a child that got none. A child that dies
 * (a native crash, the OOM killer, a lost X server) rejects its render with its stderr, so a
 * render never hangs.
 */
export class SegmentChild {
  private child: ChildProcess | undefined;
  private readonly started: Promise<ChildProcess>;
  private killed = false;
  private stderr = '';
  private exited: string | undefined;
  private onExit: ((reason: string) => void) | undefined;

  constructor(env: NodeJS.ProcessEnv) {
    this.started = bundledEntry(CHILD).then((entry) => {
      if (this.killed) throw new Error('killed before it started');
      const child = forkTied(entry, [], {
        // The frame loop reuses its buffers and allocates little: a small young generation keeps
        // ~25 MB of RSS off the child at no measurable cost in collection time.
        execArgv: ['--max-semi-space-size=2'],
        env,
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
        serialization: 'advanced',
      });
      this.child = child;
      child.stderr?.on('data', (d: Buffer) => {
        this.stderr = (this.stderr + d.toString()).slice(-8000);
      });
      // Not only a failed start: a job sent while the child exits fails with an 'error' event too,
      // and a second one without a listener would be an uncaught exception in this process.
      child.on('error', (err) => this.ended(child.pid === undefined ? `could not start: ${err.message}` : err.message));
      child.once('exit', (code, sig) => this.ended(sig ?? `exit ${code}`));
      return child;
    });
    this.started.catch((err: Error) => this.ended(`could not start: ${err.message}`));
  }

  render(job: SegmentJob, onFrames: (frames: number) => void, signal?: AbortSignal): Promise<SegmentStats> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        fn();
      };
      const onAbort = () => {
        this.kill();
        finish(() => reject(signal?.reason));
      };
      const died = (reason: string) =>
        finish(() =>
          reject(
            new AppError(
              'RENDER_FAILED',
              `The segment renderer died (${reason}) before finishing: ${this.stderr.trim().slice(-2000)}`,
            ),
          ),
        );
      if (signal?.aborted) return onAbort();
      if (this.exited !== undefined) return died(this.exited);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.onExit = died;
      this.started.then(
        (child) => {
          child.on('message', (m: FromChild) => {
            if (m.type === 'progress') onFrames(m.frames);
            else if (m.type === 'done') {
              const { type: _, ...stats } = m;
              finish(() => resolve(stats));
            } else if (m.type === 'error') {
              finish(() => reject(new AppError(isErrorCode(m.code) ? m.code : 'RENDER_FAILED', m.message)));
            }
          });
          child.send({ type: 'render', job } satisfies ToChild);
        },
        () => {},
      ); // a child that could not start has called died() through ended()
    });
  }

  kill(): void {
    this.killed = true;
    if (this.exited === undefined) this.child?.kill('SIGKILL');
  }

  private ended(reason: string): void {
    if (this.exited !== undefined) return;
    this.exited = reason;
    this.onExit?.(reason);
  }
}

/** Renders one segment in a fresh child process (see SegmentChild). */
export function renderSegmentInChild(
  job: SegmentJob,
  env: NodeJS.ProcessEnv,
  onFrames: (frames: number) => void,
  signal?: AbortSignal,
): Promise<SegmentStats> {
  return new SegmentChild(env).render(job, onFrames, signal);
}
