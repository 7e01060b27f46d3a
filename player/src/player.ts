/**
 * The Framewright player: a movie document (or a template and its variables) played in the page
 * with the worker's own frame graph. The server prepares it (POST /v1/previews: the render's
 * prepare step, its speech and word timings included); the frames are drawn here by the code that
 * draws a render's frames (worker/draw/gpu/frame-renderer.ts), on the page's WebGL 2, from the
 * same plan and the same timeline (worker/plan/frame-state.ts). What differs between the two sits
 * behind the frame graph's seams (FrameHost): the context is the page canvas's, the textures come
 * over HTTP, clips are decoded by <video> (clips.ts), and the sound is played by WebAudio (sound.ts).
 */
import * as THREE from 'three';
import { createFrameRenderer, type FrameHost, type FrameRenderer } from '../../worker/draw/gpu/frame-renderer.ts';
import { type FrameIndex, type FrameState, frameState, indexPlan } from '../../worker/plan/frame-state.ts';
import { Clips } from './clips.ts';
import { type LoadedPreview, loadPreview, type PreviewRequest, type PreviewResource } from './preview-api.ts';
import { Sound } from './sound.ts';

export interface PlayerOptions {
  /** The API's base URL, without /v1 ('' or omitted: the page's own origin, as in the dashboard). */
  apiUrl?: string;
  /**
   * A preview token (POST /v1/preview-tokens, made by your server), or a function that returns a
   * fresh one: it is called before each preparation. Never an API key in a page.
   */
  token: string | (() => string | Promise<string>);
}

/** What the player has drawn since it last started playing: `dropped` frames were never shown. */
export interface PlaybackStats {
  drawn: number;
  dropped: number;
  /** Milliseconds spent drawing (the frame graph's calls), over the frames drawn. */
  drawMs: number;
}

interface Loaded {
  preview: LoadedPreview;
  index: FrameIndex;
  renderer: FrameRenderer;
  canvas: HTMLCanvasElement;
  gl: WebGL2RenderingContext;
  clips: Clips;
  sound: Sound | undefined;
}

/**
 * Events: `loaded` (a preview is shown; detail: its resource), `timeupdate`, `play`, `pause`,
 * `ended`, `error` (detail: the error).
 */
export class FramewrightPlayer extends EventTarget {
  private loaded: Loaded | undefined;
  private loading: AbortController | undefined;
  private audio: AudioContext | undefined;
  private frame = 0;
  private shownFrame = -1;
  private shownScene = -1;
  private playing = false;
  /** performance.now() at which movie time 0 would have been shown (the clock of a silent movie). */
  private origin = 0;
  private raf = 0;
  private drawing: Promise<void> = Promise.resolve();
  private stats: PlaybackStats = { drawn: 0, dropped: 0, drawMs: 0 };

  constructor(
    /** The element the player's canvas goes in; the canvas fills its width at the movie's aspect. */
    readonly container: HTMLElement,
    private readonly options: PlayerOptions,
  ) {
    super();
  }

  /** The movie's length in seconds (0 before a preview is loaded). */
  get duration(): number {
    return this.loaded ? this.loaded.preview.resource.duration : 0;
  }

  get fps(): number {
    return this.loaded?.preview.plan.fps ?? 0;
  }

  get totalFrames(): number {
    return this.loaded?.preview.plan.totalFrames ?? 0;
  }

  /** The time of the frame shown, in seconds. */
  get currentTime(): number {
    return this.loaded ? this.frame / this.loaded.preview.plan.fps : 0;
  }

  get paused(): boolean {
    return !this.playing;
  }

  /** The preview shown: its id, size, and when its files expire. */
  get preview(): PreviewResource | undefined {
    return this.loaded?.preview.resource;
  }

  /** Whether sound plays (false for a silent movie, or while the browser holds audio until a gesture). */
  get audible(): boolean {
    return this.loaded?.sound?.running === true;
  }

  /** The decoded sound: its length in seconds and loudest sample (0..1); undefined for a silent movie. */
  get sound(): { duration: number; peak: number } | undefined {
    const sound = this.loaded?.sound;
    return sound && { duration: sound.duration, peak: sound.peak() };
  }

  playbackStats(): PlaybackStats {
    return { ...this.stats };
  }

  /**
   * Prepares `request` on the server and shows it at the current time (clamped to its length): a
   * document edited while it plays goes on playing from where it was. A later call supersedes one
   * still loading (its promise rejects with an AbortError).
   */
  async load(request: PreviewRequest): Promise<PreviewResource> {
    this.loading?.abort();
    const loading = new AbortController();
    this.loading = loading;
    const wasPlaying = this.playing;
    try {
      const token = typeof this.options.token === 'function' ? await this.options.token() : this.options.token;
      const preview = await loadPreview(this.options.apiUrl ?? '', token, request, loading.signal);
      loading.signal.throwIfAborted();
      this.audio ??= new AudioContext();
      const sound = preview.sound ? await Sound.decode(this.audio, preview.sound) : undefined;
      const clips = new Clips(preview.plan, preview.clips);
      await clips.ready();
      loading.signal.throwIfAborted();
      if (wasPlaying) this.stopClock();
      // The same time (not the same frame: the edit may change the frame rate), within the new length.
      const at = this.currentTime;
      this.replace({ preview, sound, clips });
      this.frame = Math.min(Math.floor(at * preview.plan.fps + 1e-6), preview.plan.totalFrames - 1);
      await this.show(this.frame, true);
      this.dispatchEvent(new CustomEvent('loaded', { detail: preview.resource }));
      if (wasPlaying) this.play();
      return preview.resource;
    } catch (err) {
      if (!loading.signal.aborted) this.dispatchEvent(new CustomEvent('error', { detail: err }));
      throw err;
    } finally {
      if (this.loading === loading) this.loading = undefined;
    }
  }

  /** Plays from the current frame (from the start when at the end). */
  play(): void {
    const l = this.loaded;
    if (!l || this.playing) return;
    if (this.frame >= l.preview.plan.totalFrames - 1) this.frame = 0;
    this.playing = true;
    this.stats = { drawn: 0, dropped: 0, drawMs: 0 };
    const from = this.frame / l.preview.plan.fps;
    this.origin = performance.now() - from * 1000;
    void l.sound?.start(from);
    this.shownFrame = this.frame - 1;
    this.dispatchEvent(new Event('play'));
    this.raf = requestAnimationFrame(this.tick);
  }

  pause(): void {
    if (!this.playing) return;
    this.stopClock();
    this.dispatchEvent(new Event('pause'));
  }

  /** Shows the frame at `sec` exactly (clips seeked to their frame); resolves once it is on the canvas. */
  async seek(sec: number): Promise<void> {
    const l = this.loaded;
    if (!l) return;
    const f = Math.max(0, Math.min(l.preview.plan.totalFrames - 1, Math.floor(sec * l.preview.plan.fps + 1e-6)));
    const wasPlaying = this.playing;
    if (wasPlaying) this.stopClock();
    this.frame = f;
    await this.show(f, true);
    this.dispatchEvent(new Event('timeupdate'));
    if (wasPlaying) this.play();
  }

  /**
   * Frame `frame` drawn exactly, as RGBA bytes (rows bottom-up, the frame graph's readRgba): what
   * test/player/fidelity.test.ts compares with the worker's own frames of the same preview. From
   * the frame graph's scene target (the worker's way), or from the canvas as the page shows it.
   */
  async frameRgba(frame: number, from: 'scene' | 'canvas' = 'scene'): Promise<Uint8Array> {
    const l = this.loaded;
    if (!l) throw new Error('No preview is loaded');
    if (this.playing) this.stopClock();
    this.frame = Math.max(0, Math.min(l.preview.plan.totalFrames - 1, frame));
    let rgba: Uint8Array | undefined;
    await this.show(this.frame, true, () => {
      if (from === 'scene') l.renderer.draw(...drawArgs(frameState(l.index, this.frame)));
      // In the task that drew it: the page may clear the canvas once it has shown it.
      rgba = l.renderer.readRgba(from).slice();
    });
    if (!rgba) throw new Error('The frame was not drawn');
    this.dispatchEvent(new Event('timeupdate'));
    return rgba;
  }

  /** Stops playing and frees the canvas, the clips and the sound. */
  destroy(): void {
    this.loading?.abort();
    this.stopClock();
    this.release();
    void this.audio?.close();
  }

  private readonly tick = (): void => {
    const l = this.loaded;
    if (!l || !this.playing) return;
    const { plan } = l.preview;
    const t = l.sound?.running ? l.sound.now() : (performance.now() - this.origin) / 1000;
    const f = Math.floor(t * plan.fps + 1e-6);
    if (f >= plan.totalFrames) {
      this.frame = plan.totalFrames - 1;
      if (this.shownFrame !== this.frame) this.drawNow(this.frame);
      this.stopClock();
      this.dispatchEvent(new Event('ended'));
      return;
    }
    if (f > this.shownFrame) {
      if (f > this.shownFrame + 1) this.stats.dropped += f - this.shownFrame - 1;
      this.frame = f;
      this.drawNow(f);
      this.dispatchEvent(new Event('timeupdate'));
    }
    this.raf = requestAnimationFrame(this.tick);
  };

  private stopClock(): void {
    this.playing = false;
    cancelAnimationFrame(this.raf);
    this.loaded?.sound?.stop();
    this.loaded?.clips.pause();
  }

  /** While playing: frame `f` at once, its clips as they play along. */
  private drawNow(f: number): void {
    const l = this.loaded!;
    const state = frameState(l.index, f);
    l.clips.follow(state.incoming ? [...state.layers, ...state.incoming.layers] : state.layers);
    this.draw(l, state);
  }

  /**
   * Frame `f` exactly: its clips seeked first. One at a time, in order of asking; `after` runs in
   * the task that drew it.
   */
  private show(f: number, exact: boolean, after?: () => void): Promise<void> {
    const run = this.drawing.then(async () => {
      const l = this.loaded;
      if (!l) return;
      const state = frameState(l.index, f);
      if (exact) await l.clips.seek(state.incoming ? [...state.layers, ...state.incoming.layers] : state.layers);
      if (this.loaded !== l) return;
      this.draw(l, state);
      after?.();
    });
    this.drawing = run.catch(() => {});
    return run;
  }

  private draw(l: Loaded, state: FrameState): void {
    const { plan } = l.preview;
    if (state.scene.index !== this.shownScene) {
      // As the worker does (render-segment.ts): only this scene's (and an incoming one's) textures stay.
      const keep = [...(l.index.layersByScene[state.scene.index] ?? [])];
      const next = plan.scenes[state.scene.index + 1];
      if (next?.transition) keep.push(...(l.index.layersByScene[next.index] ?? []));
      l.renderer.retain(new Set(keep));
      this.shownScene = state.scene.index;
    }
    const t0 = performance.now();
    l.renderer.draw(...drawArgs(state), 'canvas');
    this.stats.drawMs += performance.now() - t0;
    this.stats.drawn++;
    this.shownFrame = this.frame;
  }

  /** The new preview in place of the old: a canvas of its own (its size may differ), the old freed. */
  private replace(next: { preview: LoadedPreview; sound: Sound | undefined; clips: Clips }): void {
    this.release();
    const { plan } = next.preview;
    const canvas = document.createElement('canvas');
    canvas.width = plan.width;
    canvas.height = plan.height;
    canvas.style.width = '100%';
    canvas.style.height = 'auto';
    canvas.style.display = 'block';
    canvas.style.aspectRatio = `${plan.width} / ${plan.height}`;
    const host = browserFrameHost(canvas, next.preview.textures);
    const renderer = createFrameRenderer(plan.width, plan.height, host);
    this.container.replaceChildren(canvas);
    this.loaded = { ...next, index: indexPlan(plan), renderer, canvas, gl: host.context as WebGL2RenderingContext };
    this.shownScene = -1;
  }

  private release(): void {
    const l = this.loaded;
    if (!l) return;
    this.loaded = undefined;
    l.renderer.dispose();
    l.clips.dispose();
    l.sound?.stop();
    // The context goes with its canvas; asking for its loss frees the GPU memory now.
    l.gl.getExtension('WEBGL_lose_context')?.loseContext();
    l.canvas.remove();
  }
}

/** A frame's state as the frame graph's `draw` takes it. */
function drawArgs(
  state: FrameState,
): [Parameters<FrameRenderer['draw']>[0], Parameters<FrameRenderer['draw']>[1], Parameters<FrameRenderer['draw']>[2]] {
  const incoming = state.incoming && {
    background: state.incoming.scene.background,
    layers: state.incoming.layers,
    type: state.incoming.type,
    progress: state.incoming.progress,
  };
  return [state.scene.background, state.layers, incoming];
}

/** The page's side of the frame graph's seams: the canvas's WebGL 2 and the fetched textures (clips come as layers' planes: clips.ts). */
function browserFrameHost(canvas: HTMLCanvasElement, textures: Map<string, Uint8Array>): FrameHost {
  const context = canvas.getContext('webgl2', {
    alpha: false,
    antialias: false,
    depth: false,
    stencil: false,
    premultipliedAlpha: false,
    preserveDrawingBuffer: false,
    powerPreference: 'high-performance',
  });
  if (!context) throw new Error('This browser has no WebGL 2: the player needs it');
  THREE.ColorManagement.enabled = false;
  return {
    context,
    canvas,
    textureBytes(ref) {
      const bytes = textures.get(ref.file);
      if (!bytes) throw new Error(`The preview's texture ${ref.file} was not fetched`);
      return bytes;
    },
  };
}
