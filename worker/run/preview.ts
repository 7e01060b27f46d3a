/**
 * A live preview's preparation (api/previews/ asks through the worker process: cli/worker.ts):
 * the render's own prepare step on the movie, nothing drawn, the sound mixed and encoded as AAC in
 * MP4 (loudness as the render's). The plan that comes back names its files, not paths: the
 * browser player (player/) fetches each by name and draws the frames with the worker's frame
 * graph (draw/gpu/frame-renderer.ts).
 */
import { basename, join } from 'node:path';
import { AppError } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import { validateMovie } from '../../movie/index.ts';
import { encodeMix } from '../encode/audio/loudness.ts';
import type { PreviewFile, PreviewMessage, PreviewOutcome } from '../job-protocol.ts';
import type { RenderPlan, TextureRef } from '../plan/plan.ts';
import { prepare } from '../prepare/prepare.ts';
import { failedOutcome, preparationSettings, type WorkerConfig } from './prepare-render.ts';

/** A clip's texture name: the player draws its pixels from the clip (`<name>#frame`). */
const CLIP_FRAME_SUFFIX = '#frame';

const SOUND = 'sound.m4a';

export async function runPreview(
  job: PreviewMessage,
  config: WorkerConfig,
  signal: AbortSignal,
  logger: Logger,
): Promise<PreviewOutcome> {
  try {
    const checked = validateMovie(job.movie);
    if (!checked.ok) throw AppError.fromFindings(checked.findings);
    let sound: Promise<unknown> | undefined;
    const prepared = await prepare({
      movie: checked.value,
      format: 'mp4',
      tmpDir: job.dir,
      // A draft previews as it renders: half size, watermarked.
      draft: checked.value.draft === true,
      watermark: job.watermark || checked.value.draft === true,
      codec: 'libx264',
      ...preparationSettings(config),
      onAudio: (mixed) => {
        sound = encodeMix(config.ffmpegPath, mixed, join(job.dir, SOUND), mixed.loudness, signal, 'aac');
        sound.catch(() => {});
      },
      signal,
      logger,
    });
    if (prepared.plan.totalFrames === 0)
      throw new AppError('RENDER_FAILED', 'The movie has no frames: every scene is shorter than one frame');
    const files: PreviewFile[] = [];
    const plan = servablePlan(prepared.plan, files);
    if (sound) {
      await sound;
      files.push({ name: SOUND, path: join(job.dir, SOUND), type: 'audio/mp4' });
    }
    return {
      type: 'prepared',
      plan,
      durationSec: prepared.timeline.totalFrames / prepared.plan.fps,
      files,
      ...(sound ? { sound: SOUND } : {}),
      words: Object.fromEntries(prepared.captions),
    };
  } catch (caught) {
    if (!(caught instanceof AppError)) logger.error({ err: caught }, 'preview failed');
    return failedOutcome(caught, 'preparing the preview');
  }
}

/** Content-Type of a clip from its name (the player fetches it whole and plays it from a blob). */
function clipType(file: string): string {
  if (/\.(webm|mkv)$/i.test(file)) return 'video/webm';
  if (/\.mov$/i.test(file)) return 'video/quicktime';
  return 'video/mp4';
}

/**
 * The plan with each file path replaced by a name (`tex-3.rgba`, `clip-0.src`), recorded in
 * `files`: no path of this machine leaves the worker, and only these names are served.
 */
function servablePlan(plan: RenderPlan, files: PreviewFile[]): RenderPlan {
  const names = new Map<string, string>();
  const texture = (ref: TextureRef): TextureRef => {
    let name = names.get(ref.file);
    if (!name) {
      name = `t${names.size}-${basename(ref.file).replace(/[^A-Za-z0-9.-]/g, '_')}`;
      names.set(ref.file, name);
      files.push({ name, path: ref.file, type: 'application/octet-stream' });
    }
    return { ...ref, file: name };
  };
  let clips = 0;
  const layers = plan.layers.map((l) => {
    if (l.video) {
      const name = `clip-${clips++}.src`;
      files.push({ name, path: l.video.file, type: clipType(l.video.file) });
      return {
        ...l,
        video: { ...l.video, file: name },
        texture: { ...l.texture, file: `${name}${CLIP_FRAME_SUFFIX}` },
      };
    }
    return {
      ...l,
      texture: texture(l.texture),
      ...(l.frames ? { frames: { ...l.frames, textures: l.frames.textures.map(texture) } } : {}),
      ...(l.zoomed ? { zoomed: l.zoomed.map((z) => ({ ...z, texture: texture(z.texture) })) } : {}),
    };
  });
  return { ...plan, layers };
}
