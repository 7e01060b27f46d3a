import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { AppError, isErrorCode } from '../lib/errors.ts';
import type { SegmentJob, SegmentStats } from './render-segment.ts';
import type { FromChild, ToChild } from './segment-child.ts';

const CHILD = fileURLToPath(new URL('./segment-child.ts', import.meta.url));

/**
 * Renders one segment in a child process. Rejects with the child's stderr when it dies without
 * answering (a native crash, the OOM killer, a lost X server), so a render never hangs.
 */
export function renderSegmentInChild(
  job: SegmentJob,
  env: NodeJS.ProcessEnv,
  onFrames: (frames: number) => void,
  signal?: AbortSignal,
): Promise<SegmentStats> {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, [], {
      execArgv: ['--import', 'tsx'],
      env,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-8000);
    });
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const onAbort = () => {
      child.kill('SIGKILL');
      finish(() => reject(signal?.reason));
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    child.on('message', (m: FromChild) => {
      if (m.type === 'progress') onFrames(m.frames);
      else if (m.type === 'done') {
        const { type: _, ...stats } = m;
        finish(() => resolve(stats));
      } else if (m.type === 'error') {
        finish(() => reject(new AppError(isErrorCode(m.code) ? m.code : 'RENDER_FAILED', m.message)));
      }
    });
    child.once('error', (err) =>
      finish(() => reject(new AppError('RENDER_FAILED', `segment renderer: ${err.message}`))),
    );
    child.once('exit', (code, sig) => {
      finish(() =>
        reject(
          new AppError(
            'RENDER_FAILED',
            `The segment renderer died (${sig ?? `exit ${code}`}) before finishing: ${stderr.trim().slice(-2000)}`,
          ),
        ),
      );
    });
    child.send({ type: 'render', job } satisfies ToChild);
  });
}
