import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { limitConcurrency } from '../../lib/concurrency.ts';
import { AppError } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { OutputFormatName } from '../../lib/output-formats.ts';
import { type FileCue, parseSubtitleFile } from '../../lib/subtitle-file.ts';
import {
  buildTimeline,
  DEFAULT_DUCKING,
  DEFAULT_FONT,
  type Element,
  type Movie,
  type OutputFrame,
  outputFrame,
  type SubtitlesElement,
  type Timeline,
  VOICE_TAIL_SEC,
} from '../../movie/index.ts';
import { type LoudnessTarget, loudnessTarget } from '../encode/audio/loudness.ts';
import { type Clip, MIX_RATE, mixClips, type Span } from '../encode/audio/mix.ts';
import { maxScaleOf } from '../plan/animate.ts';
import { parseColor } from '../plan/color.ts';
import { compositeChunk } from '../plan/composite-plan.ts';
import { indexPlan } from '../plan/frame-state.ts';
import { layerEffectsOf } from '../plan/layer-effects.ts';
import { boxOrigin, elementMotion, type MotionFields, volumeGain } from '../plan/motion-plan.ts';
import type { AnimationPreset, EncodeQuality, LayerPlan, RenderPlan, TextureRef, VideoCodec } from '../plan/plan.ts';
import { chunkFramesFor, chunksOf } from '../plan/segments.ts';
import { animatedLayerPlan, imageAnimation } from './assets/animated-image.ts';
import { type FetchPolicy, fetchAsset } from './assets/fetch-asset.ts';
import { decodeImage, IMAGE_TYPES, svgSource } from './assets/image-asset.ts';
import { rasteriseSvg } from './assets/svg-image.ts';
import { groupCaptions } from './captions.ts';
import { fitSize } from './fit.ts';
import { decodeAudio, fetchMedia, type MediaInfo, playedSec, probeMedia } from './media-file.ts';
import { rasteriseShape, type ShapeRaster } from './shapes/shape-raster.ts';
import { type Speech, type SpeechConfig, SpeechSynthesizer } from './speech/speech.ts';
import type { TimedWord } from './speech/word-timing.ts';
import { textStyleOf } from './text/element-style.ts';
import { fontRegistry, type UserFont } from './text/fonts.ts';
import {
  boxPadding,
  lineCount,
  type Raster,
  rasteriseCaption,
  rasteriseText,
  rasteriseTextUnits,
  type TextRaster,
  type TextStyle,
  textZoomer,
} from './text/text-raster.ts';
import { textLayers } from './text/text-reveal.ts';
import { transcribeWords } from './transcribe.ts';
import { zoomedSize, zoomedTextures, zoomScales } from './zoom-rasters.ts';

export interface PrepareOptions {
  movie: Movie;
  /** The render's output format, decided when it was created: in the plan every stage reads. */
  format: OutputFormatName;
  tmpDir: string;
  draft: boolean;
  watermark: boolean;
  codec: VideoCodec;
  /** Overrides the movie's `quality` (benchmarks: `lossless`). */
  quality?: EncodeQuality | undefined;
  fetchPolicy: FetchPolicy;
  speech: SpeechConfig;
  /** ffmpeg and ffprobe, for video and audio sources (default: from PATH). */
  ffmpegPath?: string | undefined;
  ffprobePath?: string | undefined;
  /** 0..1 of the preparing phase. */
  onStep?: (fraction: number) => void;
  /** Called once the voiceover is mixed (before textures are made), when there is one. */
  onAudio?: (audio: NonNullable<Prepared['audio']>) => void;
  /** `false`: no sound decoded or mixed (a still: worker/run/still.ts); speech still times the scenes. */
  audio?: boolean | undefined;
  signal?: AbortSignal | undefined;
  logger?: Logger | undefined;
}

export interface Prepared {
  plan: RenderPlan;
  timeline: Timeline;
  frame: OutputFrame;
  /** The one mix of voiceover, sounds, clips' sound and soundtrack, when the movie has any. */
  audio?: { file: string; sampleRate: number; channels: 1 | 2; loudness: LoudnessTarget | undefined } | undefined;
  /** Word timings per subtitles element path, absolute seconds (what the captions show). */
  captions: Map<string, { text: string; startSec: number; endSec: number }[]>;
}

const FONT_TYPES = [
  'font/ttf',
  'font/otf',
  'font/woff',
  'font/woff2',
  'application/font-woff',
  'application/font-woff2',
  'application/x-font-ttf',
  'application/x-font-otf',
  'application/vnd.ms-opentype',
  'font/sfnt',
];

/** Media sources fetched and probed (and sounds decoded) at once. */
const MEDIA_CONCURRENCY = 4;

const elementPath = (s: number, e: number) => `scenes[${s}].elements[${e}]`;

/**
 * Preparation: fetches and decodes assets, synthesises speech, fixes every duration, rasterises
 * text and captions, mixes the audio. Output is a RenderPlan (plain JSON and texture files in
 * `tmpDir`) that any number of segment renderers can draw from. In phases, each a function below:
 * the sources are fetched (images, media, speech) while one another's network waits, the timeline
 * follows from their durations, the sound is mixed and handed over (`onAudio`) before the textures
 * are made, then each element becomes its layers.
 */
export async function prepare(opts: PrepareOptions): Promise<Prepared> {
  const { movie } = opts;
  const ctx = contextOf(opts);
  // Image fetches and media probes run while speech is synthesised: they are independent.
  const images = fetchImages(ctx);
  const media = fetchSources(ctx);
  const speeches = await synthesizeVoices(ctx);
  const soundtrack = movie.soundtrack ? await media.get('soundtrack.src')! : undefined;
  const mediaInfo = await playedMedia(ctx, media);
  const timeline = buildTimeline(movie, sceneDurations(movie, mediaInfo, speeches), ctx.frame.fps);
  const found: Found = { timeline, speeches, mediaInfo, soundtrack, spanOf: spans(movie, timeline, mediaInfo) };
  // The audio is final once the timeline is: it is mixed now and handed over (onAudio), so its
  // encoding runs while the frames' textures are still being made.
  const audio = opts.audio === false ? undefined : await mixSound(ctx, found);
  if (audio) opts.onAudio?.(audio);

  const textures = textureWriter(ctx.tmpDir);
  const made: LayerMaking = {
    ...found,
    images,
    writeTexture: textures,
    fontFor: fontLoader(ctx),
    transcribedWords: transcriber(ctx, found),
    captions: new Map(),
  };
  const layers: LayerPlan[] = [];
  for (const [s, scene] of movie.scenes.entries()) {
    for (const [e, el] of scene.elements.entries()) {
      if (opts.signal?.aborted) throw opts.signal.reason;
      layers.push(...(await elementLayers(ctx, made, s, e, el)));
      ctx.step();
    }
  }
  if (opts.watermark || opts.draft) layers.push(...(await watermarkLayers(ctx, timeline, textures)));
  ctx.step();
  return { plan: renderPlan(ctx, timeline, layers), timeline, frame: ctx.frame, audio, captions: made.captions };
}

/** What every phase of one preparation reads: the movie, its options, the frame and its scale. */
interface PrepareContext {
  movie: Movie;
  opts: PrepareOptions;
  tmpDir: string;
  signal: AbortSignal | undefined;
  frame: OutputFrame;
  /** The full-size frame: positions and sizes in the document are its pixels; drafts scale them by k. */
  full: OutputFrame;
  k: number;
  W: number;
  H: number;
  ffmpeg: string;
  ffprobe: string;
  /** A few media downloads and probes at a time: a document may name thousands. */
  mediaSlot: <T>(run: () => Promise<T>) => Promise<T>;
  /** One step of the preparing phase done (a voice, an element, the plan). */
  step: () => void;
}

function contextOf(opts: PrepareOptions): PrepareContext {
  const { movie } = opts;
  const frame = outputFrame(movie, { draft: opts.draft });
  const full = outputFrame({ ...movie, draft: false });
  let steps = 0;
  const voices = movie.scenes.reduce((n, sc) => n + sc.elements.filter((el) => el.type === 'voice').length, 0);
  const totalSteps = voices + movie.scenes.reduce((n, sc) => n + sc.elements.length, 0) + 1;
  return {
    movie,
    opts,
    tmpDir: opts.tmpDir,
    signal: opts.signal,
    frame,
    full,
    k: frame.width / full.width,
    W: frame.width,
    H: frame.height,
    ffmpeg: opts.ffmpegPath ?? 'ffmpeg',
    ffprobe: opts.ffprobePath ?? 'ffprobe',
    mediaSlot: limitConcurrency(MEDIA_CONCURRENCY),
    step: () => opts.onStep?.(Math.min(1, ++steps / totalSteps)),
  };
}

/** A fetched and probed video or audio source. */
type Source = { file: string; info: MediaInfo };
/** A source as an element plays it: how many seconds of it one pass shows. */
type PlayedSource = Source & { playedSec: number };

/** What the sources and the timeline fixed, which the sound and the layers are made from. */
interface Found {
  timeline: Timeline;
  speeches: Map<string, Speech>;
  mediaInfo: Map<string, PlayedSource>;
  soundtrack: Source | undefined;
  /** When an element starts and ends on the movie timeline (cut at its scene's end). */
  spanOf: (s: number, e: number) => Span;
}

/** The box an element's image or video is fitted into: its size in the document, scaled to the frame. */
function boxOf(ctx: PrepareContext, el: { width?: number | undefined; height?: number | undefined }) {
  return {
    boxW: Math.max(1, Math.round((el.width ?? ctx.full.width) * ctx.k)),
    boxH: Math.max(1, Math.round((el.height ?? ctx.full.height) * ctx.k)),
  };
}

/** Every image element's picture, fetched and decoded into its box, by element path. */
function fetchImages(ctx: PrepareContext): Map<string, Promise<Raster>> {
  const images = new Map<string, Promise<Raster>>();
  ctx.movie.scenes.forEach((scene, s) => {
    scene.elements.forEach((el, e) => {
      if (el.type !== 'image') return;
      const path = elementPath(s, e);
      const { boxW, boxH } = boxOf(ctx, el);
      const p = fetchAsset(
        el.src,
        `${path}.src`,
        (t) => IMAGE_TYPES.includes(t),
        ctx.opts.fetchPolicy,
        ctx.signal,
      ).then((a) => decodeImage(a.bytes, boxW, boxH, el.fit ?? 'contain', `${path}.src`));
      p.catch(() => {});
      images.set(path, p);
    });
  });
  return images;
}

/** Every video and audio source, fetched and probed once per URL, by the path of its `src`. */
function fetchSources(ctx: PrepareContext): Map<string, Promise<Source>> {
  const sources = new Map<string, Promise<Source>>();
  const media = new Map<string, Promise<Source>>();
  const useMedia = (url: string, path: string, kind: 'video' | 'audio') => {
    let source = sources.get(`${kind} ${url}`);
    if (!source) {
      source = ctx.mediaSlot(async () => {
        const file = await fetchMedia(url, path, kind, ctx.opts.fetchPolicy, ctx.tmpDir, ctx.signal);
        return { file, info: await probeMedia(ctx.ffprobe, file, path, ctx.signal) };
      });
      sources.set(`${kind} ${url}`, source);
    }
    const checked = source.then((m) => {
      if (kind === 'video' && !m.info.video)
        throw new AppError('ASSET_INVALID', 'The file has no video stream', { path });
      if (kind === 'audio' && !m.info.audio)
        throw new AppError('ASSET_INVALID', 'The file has no audio stream', { path });
      return m;
    });
    checked.catch(() => {});
    media.set(path, checked);
  };
  ctx.movie.scenes.forEach((scene, s) => {
    scene.elements.forEach((el, e) => {
      if (el.type === 'video' || el.type === 'audio') useMedia(el.src, `${elementPath(s, e)}.src`, el.type);
    });
  });
  if (ctx.movie.soundtrack) useMedia(ctx.movie.soundtrack.src, 'soundtrack.src', 'audio');
  return media;
}

/** Every voice element's speech, in document order, by element path. */
async function synthesizeVoices(ctx: PrepareContext): Promise<Map<string, Speech>> {
  const speeches = new Map<string, Speech>();
  const synth = new SpeechSynthesizer(ctx.tmpDir, ctx.opts.speech);
  try {
    for (const [s, scene] of ctx.movie.scenes.entries()) {
      for (const [e, el] of scene.elements.entries()) {
        if (el.type !== 'voice') continue;
        if (ctx.signal?.aborted) throw ctx.signal.reason;
        const path = elementPath(s, e);
        speeches.set(path, await synth.synthesize(el, path, ctx.signal));
        ctx.step();
      }
    }
  } finally {
    synth.close();
  }
  return speeches;
}

/** Each video and audio element's source with the seconds one pass of it plays, by element path. */
async function playedMedia(
  ctx: PrepareContext,
  media: Map<string, Promise<Source>>,
): Promise<Map<string, PlayedSource>> {
  const played = new Map<string, PlayedSource>();
  for (const [s, scene] of ctx.movie.scenes.entries()) {
    for (const [e, el] of scene.elements.entries()) {
      if (el.type !== 'video' && el.type !== 'audio') continue;
      const path = elementPath(s, e);
      const m = await media.get(`${path}.src`)!;
      played.set(path, { ...m, playedSec: playedSec(m.info, el.trimStart ?? 0, el.trimDuration, path) });
    }
  }
  return played;
}

/** Each scene's length: given, or its videos' or its voices' (and the tail after the last). */
function sceneDurations(movie: Movie, mediaInfo: Map<string, PlayedSource>, speeches: Map<string, Speech>): number[] {
  return movie.scenes.map((scene, s) => {
    if (typeof scene.duration === 'number') return scene.duration;
    let end = 0;
    if (scene.duration === 'video') {
      scene.elements.forEach((el, e) => {
        if (el.type !== 'video') return;
        end = Math.max(end, (el.start ?? 0) + (el.duration ?? mediaInfo.get(elementPath(s, e))!.playedSec));
      });
      return end;
    }
    scene.elements.forEach((el, e) => {
      if (el.type !== 'voice') return;
      end = Math.max(end, (el.start ?? 0) + speeches.get(elementPath(s, e))!.durationSec);
    });
    return end + VOICE_TAIL_SEC;
  });
}

function spans(movie: Movie, timeline: Timeline, mediaInfo: Map<string, PlayedSource>): Found['spanOf'] {
  return (s, e) => {
    const el = movie.scenes[s]!.elements[e]!;
    const ts = timeline.scenes[s]!;
    const startSec = ts.startSec + (el.start ?? 0);
    let end = ts.endSec;
    if (el.type !== 'voice' && el.duration !== undefined) end = startSec + el.duration;
    else if ((el.type === 'video' || el.type === 'audio') && !el.loop)
      end = startSec + mediaInfo.get(elementPath(s, e))!.playedSec;
    return { startSec, endSec: Math.min(ts.endSec, end) };
  };
}

/**
 * The one mix of voiceover, sounds, clips' sound and the soundtrack (ducked under the voices),
 * written to the scratch directory; undefined for a silent movie. Sources are decoded in
 * parallel and mixed in document order (float sums depend on order: same input, same bytes).
 */
async function mixSound(ctx: PrepareContext, found: Found): Promise<Prepared['audio']> {
  const { movie, signal } = ctx;
  const { timeline, speeches, mediaInfo, soundtrack } = found;
  const clips: Clip[] = [];
  const voiceSpans: Span[] = [];
  const decodes: Promise<Clip>[] = [];
  const totalSec = timeline.totalFrames / ctx.frame.fps;
  const decode = (m: Source, fromSec: number, sec: number, path: string) =>
    ctx.mediaSlot(() => decodeAudio(ctx.ffmpeg, m.file, fromSec, sec, MIX_RATE, channelsOf(m.info), path, signal));
  for (const [s, scene] of movie.scenes.entries()) {
    for (const [e, el] of scene.elements.entries()) {
      const path = elementPath(s, e);
      if (el.type === 'voice') {
        const sp = speeches.get(path)!;
        const startSec = timeline.scenes[s]!.startSec + (el.start ?? 0);
        clips.push({ pcm: sp.pcm, sampleRate: sp.sampleRate, startSec });
        voiceSpans.push({ startSec, endSec: startSec + sp.pcm.length / sp.sampleRate });
      } else if (el.type === 'audio' || (el.type === 'video' && !el.muted && (el.volume ?? 1) > 0)) {
        const m = mediaInfo.get(path)!;
        if (el.type === 'video' && !m.info.audio) continue; // a silent clip
        const span = found.spanOf(s, e);
        // No more of the source than plays (one pass at most: the mix loops it).
        const decodeSec = Math.min(m.playedSec, span.endSec - span.startSec);
        if (decodeSec <= 0) continue;
        decodes.push(
          decode(m, el.trimStart ?? 0, decodeSec, `${path}.src`).then((pcm) => ({
            pcm,
            channels: channelsOf(m.info),
            sampleRate: MIX_RATE,
            startSec: span.startSec,
            durationSec: span.endSec - span.startSec,
            loop: el.loop === true,
            volume: el.volume ?? 1,
            ...(el.type === 'audio' ? { fadeInSec: el.fadeIn ?? 0, fadeOutSec: el.fadeOut ?? 0 } : {}),
            // animate.volume: the keyframed gain (worker/plan/motion-plan.ts).
            ...gainOf(el as MotionFields, span.endSec - span.startSec, path),
          })),
        );
      }
    }
  }
  if (movie.soundtrack && soundtrack) {
    const st = movie.soundtrack;
    const length = Math.min(playedSec(soundtrack.info, st.trimStart ?? 0, undefined, 'soundtrack'), totalSec);
    decodes.push(
      decode(soundtrack, st.trimStart ?? 0, length, 'soundtrack.src').then((pcm) => ({
        pcm,
        channels: channelsOf(soundtrack.info),
        sampleRate: MIX_RATE,
        startSec: 0,
        durationSec: totalSec,
        loop: st.loop ?? true,
        volume: st.volume ?? 1,
        fadeInSec: st.fadeIn ?? 0,
        fadeOutSec: st.fadeOut ?? 0,
        duck: { gain: st.ducking ?? DEFAULT_DUCKING, under: voiceSpans },
      })),
    );
  }
  clips.push(...(await Promise.all(decodes)));
  if (clips.length === 0) return undefined;
  // Stereo once music or a recorded sound is in it; voiceover alone stays mono.
  const channels = clips.length > voiceSpans.length ? 2 : 1;
  const pcm = mixClips(clips, totalSec, MIX_RATE, channels);
  const file = join(ctx.tmpDir, 'mix.pcm');
  writeFileSync(file, Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
  // Normalised where it is encoded (worker/encode/audio/loudness.ts), once for every segment.
  return { file, sampleRate: MIX_RATE, channels, loudness: loudnessTarget(movie) };
}

/** Writes rasters as texture files in the scratch directory, numbered in the order they come. */
function textureWriter(tmpDir: string): (r: Raster) => TextureRef {
  let texN = 0;
  return (r) => {
    const file = join(tmpDir, `tex-${texN++}.rgba`);
    writeFileSync(file, r.data);
    return { file, width: r.width, height: r.height };
  };
}

/** A font by name, or by URL fetched once per render and registered once per distinct file. */
function fontLoader(ctx: PrepareContext): (font: string | undefined, path: string) => Promise<string | UserFont> {
  const userFonts = new Map<string, Promise<UserFont>>();
  return (font, path) => {
    const name = font ?? DEFAULT_FONT;
    if (!/^(https?:|data:)/.test(name)) return Promise.resolve(name);
    let hit = userFonts.get(name);
    if (!hit) {
      hit = (async () => {
        const asset = await fetchAsset(
          name,
          `${path}.font`,
          (t) => FONT_TYPES.includes(t),
          ctx.opts.fetchPolicy,
          ctx.signal,
        );
        const registry = await fontRegistry();
        try {
          return registry.userFont(asset.bytes);
        } catch (err) {
          throw new AppError('ASSET_INVALID', `The font could not be read: ${(err as Error).message}`, {
            path: `${path}.font`,
            cause: err,
          });
        }
      })();
      userFonts.set(name, hit);
    }
    return hit;
  };
}

/** Words repeated every `passSec` (a looping source) from `fromSec` until `untilSec`. */
function repeatWords(words: TimedWord[], fromSec: number, passSec: number, untilSec: number, loop: boolean) {
  const out: TimedWord[] = [];
  for (let pass = fromSec; pass < untilSec; pass += passSec) {
    for (const w of words) {
      if (w.startSec >= passSec || pass + w.startSec >= untilSec) continue;
      out.push({ ...w, startSec: pass + w.startSec, endSec: pass + Math.min(w.endSec, passSec) });
    }
    if (!loop) break;
  }
  return out;
}

/**
 * The words an audio or video element of scene `s` says, or the soundtrack's (subtitles `from`),
 * on the movie's timeline: its sound as it plays (from trimStart, one pass, repeated while a
 * looping element plays on) transcribed through the OpenAI-protocol endpoint. The soundtrack is
 * transcribed once, however many subtitles elements caption it.
 */
function transcriber(
  ctx: PrepareContext,
  found: Found,
): (s: number, id: string, language: string | undefined, at: string) => Promise<TimedWord[]> {
  const { movie, opts, signal } = ctx;
  const { soundtrack } = found;
  const totalSec = found.timeline.totalFrames / ctx.frame.fps;
  const rate = 16_000;
  const transcribe = (pcm: Int16Array, language: string | undefined, at: string) =>
    transcribeWords(
      pcm,
      rate,
      language,
      {
        apiKey: opts.speech.openaiApiKey,
        baseUrl: opts.speech.transcribeBaseUrl ?? opts.speech.openaiBaseUrl,
        model: opts.speech.transcribeModel,
      },
      at,
      signal,
    );
  const soundtrackWords = new Map<string, Promise<TimedWord[]>>();
  return async (s, id, language, at) => {
    if (id === 'soundtrack') {
      const st = movie.soundtrack;
      if (!st || !soundtrack) {
        throw new AppError('VALIDATION_ERROR', 'The movie has no soundtrack to transcribe', { path: at });
      }
      const key = language ?? '';
      let hit = soundtrackWords.get(key);
      if (!hit) {
        const passSec = Math.min(playedSec(soundtrack.info, st.trimStart ?? 0, undefined, 'soundtrack'), totalSec);
        hit = (async () => {
          const pcm = await decodeAudio(
            ctx.ffmpeg,
            soundtrack.file,
            st.trimStart ?? 0,
            passSec,
            rate,
            1,
            'soundtrack.src',
            signal,
          );
          return repeatWords(await transcribe(pcm, language, at), 0, passSec, totalSec, st.loop ?? true);
        })();
        soundtrackWords.set(key, hit);
      }
      return hit;
    }
    const j = movie.scenes[s]!.elements.findIndex((o) => o.id === id);
    const target = movie.scenes[s]!.elements[j];
    if (!target || (target.type !== 'audio' && target.type !== 'video')) {
      throw new AppError('VALIDATION_ERROR', `No audio or video element "${id}" in this scene to transcribe`, {
        path: at,
      });
    }
    const m = found.mediaInfo.get(elementPath(s, j))!;
    if (!m.info.audio) {
      throw new AppError('ASSET_INVALID', `The ${target.type} element "${id}" has no sound to transcribe`, {
        path: at,
      });
    }
    const span = found.spanOf(s, j);
    const passSec = Math.min(m.playedSec, span.endSec - span.startSec);
    if (passSec <= 0) return [];
    const pcm = await decodeAudio(
      ctx.ffmpeg,
      m.file,
      target.trimStart ?? 0,
      passSec,
      rate,
      1,
      `${elementPath(s, j)}.src`,
      signal,
    );
    const words = await transcribe(pcm, language, at);
    return repeatWords(words, span.startSec, m.playedSec, span.endSec, 'loop' in target && target.loop === true);
  };
}

/** What the layers are made with, on top of what the sources and the timeline fixed. */
interface LayerMaking extends Found {
  images: Map<string, Promise<Raster>>;
  writeTexture: (r: Raster) => TextureRef;
  fontFor: (font: string | undefined, path: string) => Promise<string | UserFont>;
  transcribedWords: ReturnType<typeof transcriber>;
  /** Filled as subtitles elements are made: the words each shows (Prepared['captions']). */
  captions: Prepared['captions'];
}

/** Where an element of its document box goes in the frame, and its motion: the parts every layer kind shares. */
function placement(ctx: PrepareContext, el: Element, path: string, startSec: number, endSec: number) {
  const { k, W, H } = ctx;
  const pos = 'position' in el ? el.position : undefined;
  return {
    /** The top-left of a raster centred in its box (whole pixels: a texel lands on a pixel, so stills are sharp). */
    place(r: { width: number; height: number }, boxW = r.width, boxH = r.height) {
      const bx = pos && pos !== 'center' ? pos.x * k : (W - boxW) / 2;
      const by = pos && pos !== 'center' ? pos.y * k : (H - boxH) / 2;
      return { x: Math.round(bx + (boxW - r.width) / 2), y: Math.round(by + (boxH - r.height) / 2) };
    },
    /** Keyframes and entry/exit presets as tracks (worker/plan/motion-plan.ts); x and y keys are the box's edges. */
    motionFor(boxW: number, boxH: number): Pick<LayerPlan, 'motion'> {
      const frame = {
        k,
        width: W,
        height: H,
        lengthSec: endSec - startSec,
        path,
        ...boxOrigin(pos, boxW, boxH, k, W, H),
      };
      const motion = elementMotion(el as MotionFields, frame);
      return motion ? { motion } : {};
    },
  };
}

/** The layers of element `e` of scene `s`: one for most, one per revealed unit or caption line for some, none for sound. */
async function elementLayers(
  ctx: PrepareContext,
  made: LayerMaking,
  s: number,
  e: number,
  el: Element,
): Promise<LayerPlan[]> {
  const path = elementPath(s, e);
  const { startSec, endSec } = made.spanOf(s, e);
  const { place, motionFor } = placement(ctx, el, path, startSec, endSec);
  const base = { path, sceneIndex: s, startSec, endSec, ...animationOf(el) };
  /** A text's or shape's layer (a text raster is boxed too): placed by its box; the raster holds the ink wherever it reaches around it. */
  const boxedLayer = (r: ShapeRaster): LayerPlan => {
    const at = place({ width: r.boxWidth, height: r.boxHeight });
    return {
      ...base,
      texture: made.writeTexture(r),
      x: at.x + r.offsetX,
      y: at.y + r.offsetY,
      width: r.width,
      height: r.height,
      ...motionFor(r.boxWidth, r.boxHeight),
    };
  };
  if (el.type === 'text') {
    const style = textStyleOf(el, ctx.k, ctx.W, await made.fontFor(el.font, path));
    // A word-by-word or letter-by-letter reveal: the same raster, with each unit's rectangles (text-reveal.ts).
    const reveal = el.textAnimation && (await rasteriseTextUnits(el.text, style, el.textAnimation.unit));
    const r = reveal ? reveal.raster : await rasteriseText(el.text, style);
    noteMissing(ctx.opts.logger, path, r.missing);
    const whole = boxedLayer(r);
    // Zoomed above 1: the same text drawn larger (the pieces of a reveal share the copies).
    const zoomed = await zoomedCopies(ctx, made, whole, async () => textZoomer(el.text, style, r));
    return textLayers(zoomed, reveal, el.textAnimation);
  }
  if (el.type === 'image') {
    const r = await made.images.get(path)!;
    const { boxW, boxH } = boxOf(ctx, el);
    const at = place(r, boxW, boxH);
    const box = { ...place({ width: boxW, height: boxH }), width: boxW, height: boxH };
    const effects = layerEffectsOf(el, ctx.k, { ...at, width: r.width, height: r.height }, box);
    const shown: LayerPlan = {
      ...base,
      texture: made.writeTexture(r),
      ...at,
      width: r.width,
      height: r.height,
      ...motionFor(boxW, boxH),
      ...(effects ? { effects } : {}),
    };
    // An animated GIF or WebP: every frame a texture, picked per output frame (frame-state.ts).
    const frames = imageAnimation(r);
    if (frames) shown.frames = await animatedLayerPlan(frames, shown.texture, made.writeTexture);
    // An SVG zoomed above 1 (without effects, which read one texture): drawn again larger.
    const svg = svgSource(r);
    if (!svg || effects) return [shown];
    const fit = el.fit ?? 'contain';
    return [
      await zoomedCopies(ctx, made, shown, async () => ({
        // Contain: the whole picture, fitted to the raster's own shape; cover and fill: the box.
        draw: (k) => {
          const size = zoomedSize(r, k);
          return rasteriseSvg(svg, size.width, size.height, fit === 'contain' ? 'fill' : fit, `${path}.src`);
        },
      })),
    ];
  }
  if (el.type === 'shape') {
    const docWidth = el.width ?? ctx.full.width;
    const docHeight = el.height ?? ctx.full.height;
    const { boxW, boxH } = boxOf(ctx, el);
    const box = { docWidth, docHeight, boxWidth: boxW, boxHeight: boxH };
    const shape = boxedLayer(await rasteriseShape(el, box, path));
    return [await zoomedCopies(ctx, made, shape, async () => ({ draw: (k) => rasteriseShape(el, box, path, k) }))];
  }
  if (el.type === 'video') return [videoLayer(ctx, made.mediaInfo.get(path)!, el, base, place, motionFor)];
  if (el.type === 'subtitles') return subtitleLayers(ctx, made, s, el, path, startSec, endSec);
  return [];
}

/**
 * `layer` with sharper copies of its texture (zoom-rasters.ts) when its keyframes show it above
 * scale 1; as it is otherwise. `open` gives what draws a copy at a scale (opened only when one is
 * needed, and disposed after).
 */
async function zoomedCopies(
  ctx: PrepareContext,
  made: LayerMaking,
  layer: LayerPlan,
  open: () => Promise<{ draw(scale: number): Raster | Promise<Raster>; dispose?(): void }>,
): Promise<LayerPlan> {
  const maxScale = maxScaleOf(layer.motion, layer.endSec - layer.startSec, ctx.frame.fps);
  const scales = zoomScales(maxScale, layer.texture.width, layer.texture.height);
  if (!scales.length) return layer;
  const drawer = await open();
  try {
    return { ...layer, zoomed: await zoomedTextures(scales, async (k) => drawer.draw(k), made.writeTexture) };
  } finally {
    drawer.dispose?.();
  }
}

/** A video element's layer: its frames decoded by the renderer from the fetched file (worker/draw/video-reader.ts). */
function videoLayer(
  ctx: PrepareContext,
  m: PlayedSource,
  el: Extract<Element, { type: 'video' }>,
  base: Pick<LayerPlan, 'path' | 'sceneIndex' | 'startSec' | 'endSec' | 'animation'>,
  place: ReturnType<typeof placement>['place'],
  motionFor: ReturnType<typeof placement>['motionFor'],
): LayerPlan {
  const { boxW, boxH } = boxOf(ctx, el);
  const size = fitSize(m.info.video!, boxW, boxH, el.fit ?? 'contain');
  const at = place(size, boxW, boxH);
  const box = { ...place({ width: boxW, height: boxH }), width: boxW, height: boxH };
  const effects = layerEffectsOf(el, ctx.k, { ...at, ...size }, box, m.info.video!.matrix);
  return {
    ...base,
    texture: { file: `video:${base.path}`, width: size.width, height: size.height },
    video: {
      file: m.file,
      startSec: m.info.startSec,
      matrix: m.info.video!.matrix,
      ...size,
      trimStartSec: el.trimStart ?? 0,
      lengthSec: m.playedSec,
      loop: el.loop === true,
    },
    ...at,
    width: size.width,
    height: size.height,
    ...motionFor(boxW, boxH),
    ...(effects ? { effects } : {}),
  };
}

/** A subtitles element's caption layers: from a subtitle file, a transcript (`from`), or its scene's voices. */
async function subtitleLayers(
  ctx: PrepareContext,
  made: LayerMaking,
  s: number,
  el: SubtitlesElement,
  path: string,
  startSec: number,
  endSec: number,
): Promise<LayerPlan[]> {
  const { k, W, H } = ctx;
  const ts = made.timeline.scenes[s]!;
  // The style (its font fetched, when by URL) once the words are known, as their errors come first.
  const styled = async () => textStyleOf(el, k, W, await made.fontFor(el.font, path));
  if (el.src !== undefined) {
    const file = await fetchAsset(el.src, `${path}.src`, isSubtitleType, ctx.opts.fetchPolicy, ctx.signal);
    const at = ts.startSec + (el.start ?? 0);
    const cues = (await parseSubtitleFile(file.bytes, `${path}.src`)).map((c) => ({
      ...c,
      startSec: at + c.startSec,
      endSec: at + c.endSec,
    }));
    made.captions.set(path, cues);
    const style = await styled();
    return fileCaptionLayers(el, cues, path, s, startSec, endSec, k, W, H, style, made.writeTexture, ctx.opts.logger);
  }
  const words =
    el.from !== undefined
      ? await made.transcribedWords(s, el.from, el.language, `${path}.from`)
      : ctx.movie.scenes[s]!.elements.flatMap((v, j) => {
          const sp = v.type === 'voice' ? made.speeches.get(elementPath(s, j)) : undefined;
          if (!sp || v.type !== 'voice') return [];
          const at = ts.startSec + (v.start ?? 0);
          return sp.words.map((w) => ({ ...w, startSec: at + w.startSec, endSec: at + w.endSec }));
        });
  made.captions.set(path, words);
  const style = await styled();
  return captionLayers(el, words, path, s, startSec, endSec, k, W, H, style, made.writeTexture, ctx.opts.logger);
}

/** The watermark of drafts and watermarked plans: top right, in every scene. */
async function watermarkLayers(
  ctx: PrepareContext,
  timeline: Timeline,
  writeTexture: (r: Raster) => TextureRef,
): Promise<LayerPlan[]> {
  const r = await watermarkRaster(ctx.k * ctx.full.height);
  const tex = writeTexture(r);
  const margin = Math.round(ctx.H * 0.03);
  return timeline.scenes.map((ts) => ({
    path: 'watermark',
    sceneIndex: ts.index,
    texture: tex,
    x: ctx.W - r.width - margin,
    y: margin,
    width: r.width,
    height: r.height,
    startSec: ts.startSec,
    endSec: ts.endSec,
  }));
}

/** The plan every segment renderer draws from: the frame, the scenes, the layers, how it is encoded. */
function renderPlan(ctx: PrepareContext, timeline: Timeline, layers: LayerPlan[]): RenderPlan {
  const { movie, opts, frame } = ctx;
  const plan: RenderPlan = {
    format: opts.format,
    width: ctx.W,
    height: ctx.H,
    fps: frame.fps,
    totalFrames: timeline.totalFrames,
    scenes: timeline.scenes.map((ts) => {
      const [r, g, b] = parseColor(movie.scenes[ts.index]!.background ?? '#000000');
      return {
        index: ts.index,
        startFrame: ts.startFrame,
        endFrame: ts.endFrame,
        startSec: ts.startSec,
        transition: ts.transition,
        background: [r, g, b],
      };
    }),
    layers,
    codec: opts.codec,
    quality: opts.quality ?? movie.quality ?? 'balanced',
    chunkFrames: chunkFramesFor(frame.fps),
    encoderThreads: availableParallelism(),
  };
  plan.encoderThreads = encoderThreadsFor(plan, availableParallelism());
  return plan;
}

/**
 * x264 threads for every chunk of a render (its bytes depend on them, so prepare decides once):
 * one per core; half that when most chunks are composited by ffmpeg (composite.ts), since two
 * chunks' processes then run at once, each decoding and encoding on its own (measured here: two
 * processes with one thread each take 6% less CPU and 8% less time than with two each).
 */
export function encoderThreadsFor(plan: RenderPlan, cores: number): number {
  const index = indexPlan(plan);
  const chunks = chunksOf({ from: 0, to: plan.totalFrames }, plan.chunkFrames);
  const composited = chunks.filter((c) => compositeChunk(index, c)).length;
  return composited * 2 > chunks.length ? Math.max(1, Math.floor(cores / 2)) : cores;
}

/** Mono sources stay mono (the mix plays them in both channels); the rest mix as stereo. */
const channelsOf = (info: MediaInfo): 1 | 2 => (info.audio?.channels === 1 ? 1 : 2);

/** A clip's keyframed gain (`animate.volume`), as the mix takes it. */
function gainOf(el: MotionFields, lengthSec: number, path: string): { gainAt?: (sec: number) => number } {
  const gainAt = volumeGain(el, lengthSec, path);
  return gainAt ? { gainAt } : {};
}

function animationOf(el: Element): Pick<LayerPlan, 'animation'> {
  if (el.type !== 'text' && el.type !== 'image' && el.type !== 'video' && el.type !== 'shape') return {};
  // A single preset (the old form); animation.in / .out are tracks (motionFor).
  if (!el.animation?.preset) return {};
  return { animation: { preset: el.animation.preset as AnimationPreset, durationSec: el.animation.duration ?? 0.6 } };
}

/**
 * Characters no font of the chain has are drawn as U+FFFD (visible, never a silent gap); the
 * render logs which, at the element's path. Template writes warn about them beforehand.
 */
function noteMissing(logger: Logger | undefined, path: string, missing: string[]): void {
  if (missing.length === 0) return;
  const codes = missing.map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
  logger?.warn({ path, characters: codes }, 'characters no font covers are drawn as U+FFFD');
}

async function captionLayers(
  el: SubtitlesElement,
  words: { text: string; startSec: number; endSec: number }[],
  path: string,
  sceneIndex: number,
  startSec: number,
  endSec: number,
  k: number,
  W: number,
  H: number,
  style: TextStyle,
  writeTexture: (r: Raster) => TextureRef,
  logger: Logger | undefined,
): Promise<LayerPlan[]> {
  const shown = words.filter((w) => w.endSec > startSec && w.startSec < endSec);
  // A caption holds the words that fit in maxLines lines; a word that needs more starts the next
  // caption, and a single word wider than the box (CJK is written without spaces) wraps. No
  // caption is ever cut: the lines it draws are not limited.
  const registry = await fontRegistry();
  const maxLines = style.maxLines ?? 1;
  const unlimited = { ...style, maxLines: undefined };
  const fits = (ws: { text: string }[]) => lineCount(registry, ws.map((w) => w.text).join(' '), unlimited) <= maxLines;
  const cues = groupCaptions(shown, el.wordsPerLine ?? 6, fits);
  const highlight = parseColor(el.highlightColor ?? '#ffd400');
  const pad = boxPadding(style, style.fontSize);
  const mode = el.style ?? 'karaoke';
  const out: LayerPlan[] = [];
  // pop and boxed: one word at a time, alone, from its start until the next word of its caption
  // starts (or the caption ends); boxed puts it on the box (highlightColor when none is given).
  const wordStyle =
    mode === 'pop'
      ? { ...unlimited, color: highlight }
      : { ...unlimited, background: unlimited.background ?? { color: highlight, radius: 0 } };
  for (const cue of cues) {
    const from = Math.max(startSec, cue.startSec);
    const to = Math.min(endSec, cue.endSec);
    if (to <= from) continue;
    if (mode === 'pop' || mode === 'boxed') {
      for (const [i, w] of cue.words.entries()) {
        const wStart = Math.max(from, w.startSec);
        const wEnd = Math.min(to, cue.words[i + 1]?.startSec ?? to);
        if (wEnd <= wStart) continue;
        const r = await rasteriseText(w.text, wordStyle);
        noteMissing(logger, path, r.missing);
        out.push({
          path,
          sceneIndex,
          texture: writeTexture(r),
          ...captionOrigin(el, r, boxPadding(wordStyle, wordStyle.fontSize), k, W, H),
          width: r.width,
          height: r.height,
          startSec: wStart,
          endSec: wEnd,
          ...(mode === 'pop' ? { animation: { preset: 'zoom-in' as const, durationSec: POP_SEC } } : {}),
        });
      }
      continue;
    }
    const line = await rasteriseCaption(cue.words, unlimited, highlight);
    noteMissing(logger, path, line.raster.missing);
    const r = line.raster;
    // Placed by its text box (and the box's padding around it).
    const { x, y } = captionOrigin(el, r, pad, k, W, H);
    out.push({
      path,
      sceneIndex,
      texture: writeTexture(r),
      x,
      y,
      width: r.width,
      height: r.height,
      startSec: from,
      endSec: to,
    });
    if (mode === 'lines') continue;
    const litTex = writeTexture(line.lit);
    cue.words.forEach((w, i) => {
      const wStart = Math.max(from, w.startSec);
      const wEnd = Math.min(to, cue.words[i + 1]?.startSec ?? to);
      if (wEnd <= wStart) return;
      for (const rect of line.words[i] ?? []) {
        out.push({
          path,
          sceneIndex,
          texture: litTex,
          x: x + rect.x0,
          y: y + rect.y0,
          width: rect.x1 - rect.x0,
          height: rect.y1 - rect.y0,
          crop: rect,
          startSec: wStart,
          endSec: wEnd,
        });
      }
    });
  }
  return out;
}

/** How long a word of `pop` captions takes to zoom in to its size. */
const POP_SEC = 0.12;

/** Media types a subtitle file may be served as (servers label SRT in many ways; the content decides). */
function isSubtitleType(t: string): boolean {
  return t.startsWith('text/') || t === 'application/x-subrip' || t === 'application/octet-stream' || t === '';
}

/** Where a caption's text box goes: `position` (its padded box's top-left), centred, or bottom centre. */
function captionOrigin(el: SubtitlesElement, r: TextRaster, pad: number, k: number, W: number, H: number) {
  const pos = el.position;
  const bx = Math.round(pos && pos !== 'center' ? pos.x * k + pad : (W - r.boxWidth) / 2);
  const by = Math.round(
    pos && pos !== 'center' ? pos.y * k + pad : pos === 'center' ? (H - r.boxHeight) / 2 : H * 0.9 - r.boxHeight - pad,
  );
  return { x: bx + r.offsetX, y: by + r.offsetY };
}

/** The cues of a subtitle file: each shown as the file times it, its lines as written and wrapped at maxWidth. */
async function fileCaptionLayers(
  el: SubtitlesElement,
  cues: FileCue[],
  path: string,
  sceneIndex: number,
  startSec: number,
  endSec: number,
  k: number,
  W: number,
  H: number,
  style: TextStyle,
  writeTexture: (r: Raster) => TextureRef,
  logger: Logger | undefined,
): Promise<LayerPlan[]> {
  // A cue is never cut: it draws every line it needs, whatever maxLines says.
  const unlimited = { ...style, maxLines: undefined };
  const pad = boxPadding(style, style.fontSize);
  const out: LayerPlan[] = [];
  for (const cue of cues) {
    const from = Math.max(startSec, cue.startSec);
    const to = Math.min(endSec, cue.endSec);
    if (to <= from) continue;
    const r = await rasteriseText(cue.text, unlimited);
    noteMissing(logger, path, r.missing);
    const at = captionOrigin(el, r, pad, k, W, H);
    out.push({
      path,
      sceneIndex,
      texture: writeTexture(r),
      ...at,
      width: r.width,
      height: r.height,
      startSec: from,
      endSec: to,
    });
  }
  return out;
}

/** "FRAMEWRIGHT PREVIEW" badge, sized from the frame height: white text on a translucent dark box. */
async function watermarkRaster(frameHeight: number): Promise<Raster> {
  const fontSize = Math.max(10, frameHeight * 0.045);
  const white: [number, number, number, number] = [255, 255, 255, 235];
  return rasteriseText('FRAMEWRIGHT PREVIEW', {
    font: DEFAULT_FONT,
    weight: 800,
    fontSize,
    lineHeight: 1.3,
    align: 'left',
    maxWidth: 1e6,
    color: white,
    background: { color: [0, 0, 0, 150], padding: Math.round(fontSize * 0.3), radius: 0 },
  });
}
