import { limitConcurrency } from './concurrency.ts';
import { AppError } from './errors.ts';
import type { Logger } from './logger.ts';
import { workKey } from './storage/keys.ts';
import type { ObjectStore } from './storage/object-store.ts';

/** The key of a work object, spelled by lib/storage/keys.ts (re-exported for the pods' steps). */
export { workKey };

/**
 * The work objects of a render spread over pods (worker/run/cluster-steps.ts), under
 * `work/<renderId>/` in the object store: the prepare pod's manifest and files, each segment pod's
 * segment. Kept free of the renderer's imports: the API's sweeper removes what a failed render
 * left (api/execution/output-sweeper.ts).
 */

/**
 * What the prepare pod leaves for the others, at `work/<renderId>/manifest.json`. `Plan` is the
 * worker's RenderPlan (worker/plan/plan.ts); this module needs only the names and the segment count.
 */
export interface WorkManifest<Plan = unknown> {
  version: 1;
  /** The plan, its file paths replaced by names under the work prefix. */
  plan: Plan;
  /** The segments' frame ranges [from, to). */
  ranges: { from: number; to: number }[];
  durationSec: number;
  /** The encoded audio's name, when the movie has sound. */
  audio?: string | undefined;
  /** Every name stored under the prefix by the prepare pod (the join removes them). */
  files: string[];
}

export const MANIFEST = 'manifest.json';
export const segmentName = (index: number) => `segment-${index}.mp4`;

/** Objects moved at once between a pod and the object store. */
export const TRANSFERS = 4;

/** The manifest of a render's work, or null when there is none (never prepared, or removed). */
export async function readManifest(objects: ObjectStore, renderId: string): Promise<WorkManifest | null> {
  const object = await objects.get(workKey(renderId, MANIFEST));
  if (!object) return null;
  const chunks: Buffer[] = [];
  for await (const c of object.body) chunks.push(c as Buffer);
  const manifest = JSON.parse(Buffer.concat(chunks).toString('utf8')) as WorkManifest;
  if (manifest.version !== 1) throw new AppError('RENDER_FAILED', `Unknown work manifest version ${manifest.version}`);
  return manifest;
}

/**
 * Removes a render's work objects: every file its manifest names, the segments, the manifest last
 * (so a removal cut short can run again). Returns how many objects it removed; 0 without a
 * manifest. A failed delete is logged and left for the next run.
 */
export async function removeWork(objects: ObjectStore, renderId: string, logger?: Logger): Promise<number> {
  const manifest = await readManifest(objects, renderId);
  if (!manifest) return 0;
  const names = [...manifest.files, ...manifest.ranges.map((_, i) => segmentName(i))];
  const del = limitConcurrency(TRANSFERS);
  let failed = 0;
  await Promise.all(
    names.map((n) =>
      del(() => objects.delete(workKey(renderId, n))).catch((err: unknown) => {
        failed++;
        logger?.warn({ err, key: workKey(renderId, n) }, 'a work object was not removed');
      }),
    ),
  );
  if (failed > 0) return names.length - failed;
  await objects.delete(workKey(renderId, MANIFEST));
  return names.length + 1;
}
