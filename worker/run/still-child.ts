/**
 * Entry of a still's frame process (worker/run/still.ts): one call, the frame job; it writes the
 * frame's yuv420p bytes and answers. Like a segment child, the GL context lives here so a native
 * crash takes down this child only.
 */
import { answerCalls } from '../../lib/process/child-calls.ts';
import { renderStillFrame, type StillFrameJob } from '../draw/still-frame.ts';

void answerCalls<StillFrameJob, null>(async (job) => {
  await renderStillFrame(job);
  return null;
});
// The parent going away (it was killed, aborted, or has its answer) ends us too.
process.on('disconnect', () => setTimeout(() => process.exit(0), 100).unref());
