/**
 * How a render runs on the cluster, pure. A short movie is one Job of one pod (`single`): prepare,
 * render, join and upload in one process, as on one machine. A long one is three Jobs in turn:
 * `prepare` (one pod: assets, speech and word timings, durations, the audio mix, the segment plan,
 * all to the object store), `segments` (an Indexed Job, one pod per segment, each rendering its
 * frame range) and `join` (one pod: concatenates the segments without re-encoding, muxes the audio
 * once, uploads the MP4). docs/operations.md ("One render over many pods") and ARCHITECTURE.md
 * ("A long movie is spread over pods") tell the story.
 */
export type Stage = 'single' | 'prepare' | 'segments' | 'join';

/** Every stage, in the order its Job runs (`single` alone, or prepare, segments, join). */
export const STAGES: readonly Stage[] = ['single', 'prepare', 'segments', 'join'];

/** The name of a render's Job for a stage: the Render's name, with the stage after it when segmented. */
export function stageJobName(render: string, stage: Stage): string {
  return stage === 'single' ? render : `${render}-${stage}`;
}

export interface SegmentSettings {
  /** The most pods one render is spread over (RENDER_MAX_SEGMENTS; 1 turns segmenting off). */
  maxSegments: number;
  /** The least movie one segment pod gets, in seconds (RENDER_SEGMENT_SECONDS). */
  minSegmentSec: number;
}

/**
 * The most segments a render may be cut into, from the length estimated before rendering: one
 * per `minSegmentSec` of movie, at most `maxSegments`. 1 means a single pod. The prepare pod cuts
 * the real movie into at most this many segments, on encoder chunk boundaries (worker/plan/segments.ts),
 * so a movie shorter than its estimate gets fewer.
 */
export function segmentBudget(estimatedDurationSec: number | undefined, s: SegmentSettings): number {
  const est = Math.max(0, estimatedDurationSec ?? 0);
  const byLength = Math.floor(est / Math.max(1, s.minSegmentSec));
  return Math.max(1, Math.min(Math.floor(s.maxSegments), byLength));
}
