/**
 * The player's calls to the API, through the generated TypeScript client (clients/typescript):
 * POST /v1/previews with a preview token (or, server-side only, an API key), then the preview's
 * files by name. Every texture, clip and the sound are fetched before the first frame is shown, so
 * that seeking and playing never wait on the network.
 */
import { createFramewrightClient, FramewrightApiError, type operations } from '../../clients/typescript/src/index.ts';
import type { RenderPlan } from '../../worker/plan/plan.ts';

export type PreviewResource = operations['createPreview']['responses'][200]['content']['application/json'];
export type PreviewRequest = NonNullable<operations['createPreview']['requestBody']>['content']['application/json'];

/** A preview with its files in memory. */
export interface LoadedPreview {
  resource: PreviewResource;
  plan: RenderPlan;
  /** Texture bytes by the plan's names (raw RGBA). */
  textures: Map<string, Uint8Array>;
  /** Clips by the plan's names. */
  clips: Map<string, Blob>;
  /** The mixed sound (AAC in MP4), when the movie has sound. */
  sound: ArrayBuffer | undefined;
}

/** Files fetched at once. */
const FETCHES = 6;

/** A file the API no longer has (the preview expired, or another replica answered). */
class FileGone extends Error {}

/** A request the network failed (fetch's TypeError: a connection reset, the browser's network changing), not an answer. */
function networkFailed(err: unknown, signal?: AbortSignal): boolean {
  return err instanceof TypeError && !signal?.aborted;
}

/** How long the player waits before asking again after the network failed. */
const RETRY_AFTER_MS = 300;

/**
 * Prepares `request` and fetches its files, once more when a file is gone (the preview expired,
 * or the request landed on another API replica: docs/player.md) or the network failed on the way
 * (a browser drops its requests when the machine's network changes). Answers, errors included,
 * are never asked again.
 */
export async function loadPreview(
  apiUrl: string,
  token: string,
  request: PreviewRequest,
  signal?: AbortSignal,
): Promise<LoadedPreview> {
  try {
    return await prepareAndFetch(apiUrl, token, request, signal);
  } catch (err) {
    if (!(err instanceof FileGone) && !networkFailed(err, signal)) throw err;
    if (!(err instanceof FileGone)) await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS));
    signal?.throwIfAborted();
    return prepareAndFetch(apiUrl, token, request, signal);
  }
}

async function prepareAndFetch(
  apiUrl: string,
  token: string,
  request: PreviewRequest,
  signal?: AbortSignal,
): Promise<LoadedPreview> {
  const client = createFramewrightClient({ baseUrl: apiUrl, apiKey: token });
  const { data, error, response } = await client.POST('/v1/previews', {
    body: request,
    ...(signal ? { signal } : {}),
  });
  if (error) throw new FramewrightApiError(response.status, error);
  const plan = data.plan as unknown as RenderPlan;
  const names = new Set<string>();
  const clipNames = new Set<string>();
  for (const l of plan.layers) {
    if (l.video) {
      clipNames.add(l.video.file);
      continue;
    }
    names.add(l.texture.file);
    for (const t of l.frames?.textures ?? []) names.add(t.file);
    for (const z of l.zoomed ?? []) names.add(z.texture.file);
  }
  const textures = new Map<string, Uint8Array>();
  const clips = new Map<string, Blob>();
  let sound: ArrayBuffer | undefined;
  const jobs: (() => Promise<void>)[] = [
    ...[...names].map((name) => async () => {
      textures.set(name, new Uint8Array(await (await fetchFile(data.files_url, name, signal)).arrayBuffer()));
    }),
    ...[...clipNames].map((name) => async () => {
      clips.set(name, await (await fetchFile(data.files_url, name, signal)).blob());
    }),
  ];
  if (data.sound) {
    const name = data.sound;
    jobs.push(async () => {
      sound = await (await fetchFile(data.files_url, name, signal)).arrayBuffer();
    });
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(FETCHES, jobs.length) }, async () => {
      while (next < jobs.length) await jobs[next++]!();
    }),
  );
  return { resource: data, plan, textures, clips, sound };
}

async function fetchFile(base: string, name: string, signal?: AbortSignal): Promise<Response> {
  const res = await fetch(`${base}${encodeURIComponent(name)}`, signal ? { signal } : {});
  if (res.status === 404) throw new FileGone(`The preview's file ${name} is gone`);
  if (!res.ok) throw new Error(`The preview's file ${name} answered ${res.status}`);
  return res;
}
