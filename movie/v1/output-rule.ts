/** The cross-field checks of the movie's `output` (movie/v1/output.ts), run by the movie rule (rules.ts). */

import { OUTPUT_FORMATS, outputKind } from '../../lib/output-formats.ts';
import { isPlainObject } from '../describe.ts';
import { movieOutputFormat } from '../output-kind.ts';
import { isDeferred, reportAt, type WalkContext } from '../walk/context.ts';
import { DEFAULT_TRANSITION_SEC } from './schema.ts';

/** Seconds of slack when comparing a time with the movie's length (float sums such as 0.1 + 0.2). */
const EPSILON = 1e-9;

/**
 * The movie's length in seconds when every scene's duration is a number (scenes timed by their
 * voice or video are known only when rendering), transitions overlapping as movie/timeline.ts
 * lays them out; undefined otherwise.
 */
function knownLengthSec(doc: Record<string, unknown>): number | undefined {
  const scenes = Array.isArray(doc.scenes) ? doc.scenes : [];
  let end = 0;
  let prevLeft = 0;
  for (let i = 0; i < scenes.length; i++) {
    const scene = scenes[i];
    if (!isPlainObject(scene) || typeof scene.duration !== 'number' || !(scene.duration > 0)) return undefined;
    const d = scene.duration;
    const t = scene.transition;
    let overlap = 0;
    if (i > 0 && isPlainObject(t)) {
      const wanted = typeof t.duration === 'number' ? t.duration : DEFAULT_TRANSITION_SEC;
      overlap = Math.max(0, Math.min(wanted, prevLeft, d));
    }
    end += d - overlap;
    prevLeft = d - overlap;
  }
  return scenes.length > 0 ? end : undefined;
}

/** Whether anything in the document makes sound (a video's own sound is known only when rendering). */
function mayHaveSound(doc: Record<string, unknown>): boolean {
  if (doc.soundtrack !== undefined) return true;
  const scenes = Array.isArray(doc.scenes) ? doc.scenes : [];
  return scenes.some(
    (s) =>
      isPlainObject(s) &&
      Array.isArray(s.elements) &&
      s.elements.some((e) => isPlainObject(e) && (e.type === 'voice' || e.type === 'audio' || e.type === 'video')),
  );
}

/**
 * `output` against the rest of the document (run by the movie rule, rules.ts): `time` only with
 * a still format, `posterTime` only with a video format, both before the movie's end where its
 * length is known; an audio format needs something that sounds. Findings are VALIDATION_ERROR at
 * the field's own path.
 */
export function outputRule(doc: Record<string, unknown>, ctx: WalkContext): void {
  const output = doc.output;
  if (!isPlainObject(output) || isDeferred(ctx, output.format)) return;
  if (output.format !== undefined && !OUTPUT_FORMATS.includes(output.format as never)) return; // the schema reports it
  const format = movieOutputFormat(doc);
  const kind = outputKind(format);
  const length = knownLengthSec(doc);
  const within = (field: 'time' | 'posterTime', what: string) => {
    const v = output[field];
    if (typeof v !== 'number' || length === undefined || v < length - EPSILON) return;
    reportAt(
      ctx,
      'VALIDATION_ERROR',
      `${field} (${v} s) is not within the movie, which ends at ${length} s; give a time before the end for ${what}`,
      ['output', field],
    );
  };
  if (output.time !== undefined) {
    if (kind !== 'still')
      reportAt(
        ctx,
        'VALIDATION_ERROR',
        `time picks the frame of a still (png, jpeg, webp), and format "${format}" is ${kind === 'video' ? 'a video' : 'sound only'}; drop time or give a still format`,
        ['output', 'time'],
      );
    else within('time', 'the still');
  }
  if (output.posterTime !== undefined) {
    if (kind !== 'video')
      reportAt(
        ctx,
        'VALIDATION_ERROR',
        `posterTime picks the poster frame of a video (mp4, webm, mov, gif), and format "${format}" is ${kind === 'still' ? 'a still: use time' : 'sound only'}; drop posterTime`,
        ['output', 'posterTime'],
      );
    else within('posterTime', 'the poster frame');
  }
  if (kind === 'audio' && !mayHaveSound(doc))
    reportAt(
      ctx,
      'VALIDATION_ERROR',
      `format "${format}" is the movie's sound alone, and this movie has none (no voice, audio or video element, no soundtrack); add sound or give a video format`,
      ['output', 'format'],
    );
}
