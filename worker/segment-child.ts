/**
 * Entry of a segment child process: the heavy pixel work (GL context, frame loop, encoder pipe)
 * lives here, behind a two-message protocol, so a crash in native code takes down this child
 * only and the parent reports it with our stderr.
 */
import { AppError } from '../lib/errors.ts';
import { renderSegment, type SegmentJob, type SegmentStats } from './render-segment.ts';

export type ToChild = { type: 'render'; job: SegmentJob };
export type FromChild =
  | { type: 'progress'; frames: number }
  | ({ type: 'done' } & SegmentStats)
  | { type: 'error'; code: string; message: string };

const send = (m: FromChild) => process.send?.(m);

process.once('message', (msg: ToChild) => {
  if (msg.type !== 'render') return;
  renderSegment(msg.job, (frames) => send({ type: 'progress', frames })).then(
    (stats) => {
      send({ type: 'done', ...stats });
      process.disconnect?.();
    },
    (err: unknown) => {
      const code = err instanceof AppError ? err.code : 'RENDER_FAILED';
      send({ type: 'error', code, message: err instanceof Error ? err.message : String(err) });
      process.disconnect?.();
    },
  );
});
// The parent going away (it was killed or aborted) ends us too, not left rendering alone.
process.on('disconnect', () => setTimeout(() => process.exit(0), 100).unref());
