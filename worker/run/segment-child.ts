/**
 * Entry of a segment child process: the heavy pixel work (GL context, frame loop, encoder pipe)
 * lives here, behind one call (lib/process/child-calls.ts), so a crash in native code takes down this child
 * only and the parent reports it with our stderr.
 */
import { answerCalls } from '../../lib/process/child-calls.ts';
import { renderSegment, type SegmentJob, type SegmentStats } from './render-segment.ts';

// One call: the job; its events are the frames done so far. The parent disconnects once answered.
void answerCalls<SegmentJob, SegmentStats, number>((job, emit) => renderSegment(job, (frames) => void emit(frames)));
// The parent going away (it was killed, aborted, or has its answer) ends us too, not left rendering alone.
process.on('disconnect', () => setTimeout(() => process.exit(0), 100).unref());
