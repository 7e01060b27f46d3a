import { bundledEntry } from '../../lib/bundled-entry.ts';
import { AppError, isErrorCode } from '../../lib/errors.ts';
import { ownModule } from '../../lib/module-path.ts';
import { ChildCallError, ChildExitedError, describeExit, SupervisedChild } from '../../lib/process/supervised-child.ts';
import type { SegmentJob, SegmentStats } from './render-segment.ts';

const CHILD = ownModule('./segment-child.ts', import.meta.url);

/**
 * A segment renderer process, started before its job is known: loading three.js and headless-gl
 * costs CPU time, spent while the parent still prepares assets and speech. Its entry runs bundled
 * to plain JavaScript (lib/bundled-entry.ts), without the TypeScript loader, and answers one call
 * (lib/process/supervised-child.ts): the job, its frames as events, its stats. `kill` ends a child
 * that got none. A child that dies (a native crash, the OOM killer, a lost X server) rejects its
 * render with its stderr, so a render never hangs.
 */
export class SegmentChild {
  private readonly child: SupervisedChild<SegmentJob, SegmentStats, number>;

  constructor(env: NodeJS.ProcessEnv) {
    this.child = new SupervisedChild({
      name: 'segment renderer',
      module: bundledEntry(CHILD),
      // The frame loop reuses its buffers and allocates little: a small young generation keeps
      // ~25 MB of RSS off the child at no measurable cost in collection time.
      execArgv: ['--max-semi-space-size=2'],
      env,
      serialization: 'advanced',
      stderrChars: 8000,
    });
  }

  async render(job: SegmentJob, onFrames: (frames: number) => void, signal?: AbortSignal): Promise<SegmentStats> {
    try {
      return await this.child.call(job, { onEvent: onFrames, signal });
    } catch (err) {
      if (err instanceof ChildExitedError) {
        throw new AppError(
          'RENDER_FAILED',
          `The segment renderer died (${describeExit(err.exit)}) before finishing: ${err.exit.stderr.trim().slice(-2000)}`,
        );
      }
      if (err instanceof ChildCallError) {
        throw new AppError(err.code !== undefined && isErrorCode(err.code) ? err.code : 'RENDER_FAILED', err.message);
      }
      throw err; // the signal's reason
    } finally {
      // One job a child: it exits once the channel closes.
      this.child.disconnect();
    }
  }

  kill(): void {
    this.child.kill();
  }
}
