import { ApiError, type Render } from '../api.ts';
import { type Ctx, errorView, idempotencyKey } from '../context.ts';
import { h } from '../dom.ts';
import { documentLength, formatLength } from '../format.ts';

type Json = Record<string, unknown>;

/**
 * How often a preview render is asked for its state while it runs: a still takes a second or two,
 * and every ask counts against the key's rate limit (60 a minute on the trial plan), shared with
 * the rest of the dashboard.
 */
const POLL_MS = 800;
/** The first ask: a still is rarely done sooner. */
const FIRST_POLL_MS = 1200;
/** The slider's debounce: a drag asks for one frame, where it stops. */
const SLIDER_DELAY_MS = 500;

export interface PreviewPanel {
  element: HTMLElement;
  /**
   * A preview of the current document in `delayMs` (debounced: a later call replaces it), once the
   * person has asked for previews (the button, or the slider): opening a template costs nothing.
   */
  schedule(delayMs: number): void;
  /** Resolves once no preview render runs (the trial plan renders one at a time). */
  idle(): Promise<void>;
  stop(): void;
}

/**
 * A frame of the document being edited, at a time the slider picks: a real still render through
 * the API (POST /v1/renders, the document with `output: { format: "jpeg", time }` and `draft: true`: half size,
 * watermarked, priced as one second of video), with the session's key. The first is asked for by
 * the person (the button or the slider: each preview is charged, so opening a template renders
 * nothing); after it, again when the document or its variables change (debounced by the caller)
 * and when the slider moves; one at a time, the latest wins. Its errors (a creation refused, a
 * render failed) show in the panel.
 */
export function previewPanel(ctx: Ctx, currentDocument: () => Json | undefined, variables: () => Json): PreviewPanel {
  const slider = h('input', {
    type: 'range',
    id: 'preview-time',
    name: 'preview-time',
    min: '0',
    max: '1',
    step: '0.1',
    value: '0',
  });
  const shownTime = h('output', { for: 'preview-time', id: 'preview-time-value' }, '0 s');
  const image = h('img', { class: 'frame-image preview-frame', alt: 'Preview frame at 0 s', hidden: true });
  const status = h('p', { class: 'hint', 'aria-live': 'polite' }, 'No preview yet.');
  const showButton = h('button', { type: 'button', class: 'secondary' }, 'Show a preview frame');
  /** Previews follow the document once the person asked for one. */
  let enabled = false;
  const problem = h('div', {});
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  /** The document whose length the slider shows as a preview render measured it (voice-timed scenes included). */
  let measuredFor: string | undefined;

  const time = () => Number(slider.value);
  const setRange = (lengthSec: number) => {
    // A still's time must be before the movie's end: the last tenth of a second before it.
    const max = Math.max(0, Math.floor((lengthSec - 0.001) * 10) / 10);
    slider.max = String(max);
    if (time() > max) slider.value = String(max);
    shownTime.textContent = formatLength(time());
  };

  async function renderOnce(): Promise<void> {
    const doc = currentDocument();
    if (!doc) return;
    const key = JSON.stringify(doc);
    // Another document: its scenes' length until a render measures it.
    if (key !== measuredFor) setRange(documentLength(doc));
    const at = time();
    status.textContent = `Rendering the frame at ${formatLength(at)}…`;
    let render: Render;
    try {
      render = await ctx.api.createRender(
        { movie: { ...doc, draft: true, output: { format: 'jpeg', time: at } }, variables: variables() },
        idempotencyKey(),
      );
      for (
        let wait = FIRST_POLL_MS;
        render.status !== 'done' && render.status !== 'failed' && !stopped;
        wait = POLL_MS
      ) {
        await new Promise((resolve) => setTimeout(resolve, wait));
        render = await ctx.api.getRender(render.id);
      }
    } catch (err) {
      if (stopped) return;
      problem.replaceChildren(errorView(err));
      status.textContent = err instanceof ApiError ? 'The preview could not be rendered.' : 'The preview failed.';
      return;
    }
    if (stopped) return;
    if (render.status === 'failed' || !render.outputUrl) {
      problem.replaceChildren(
        h(
          'div',
          { class: 'error', role: 'alert' },
          h('p', {}, h('strong', {}, render.error?.code ?? 'RENDER_FAILED'), ' ', render.error?.message ?? ''),
          render.error?.path ? h('p', {}, h('code', { class: 'path' }, render.error.path)) : null,
        ),
      );
      status.textContent = 'The preview failed.';
      return;
    }
    problem.replaceChildren();
    if (render.durationSec !== null) {
      measuredFor = key;
      setRange(render.durationSec);
    }
    image.src = render.outputUrl;
    image.alt = `Preview frame at ${formatLength(at)}`;
    image.hidden = false;
    image.dataset.time = String(at);
    status.textContent = `The frame at ${formatLength(at)} of ${formatLength(render.durationSec)} (draft: half size, watermarked).`;
  }

  /** One preview render at a time; a request while one runs makes one more after it, for the latest state. */
  function run(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = renderOnce().finally(() => {
      running = undefined;
      if (again && !stopped) {
        again = false;
        run();
      }
    });
  }

  const schedule = (delayMs: number) => {
    clearTimeout(timer);
    if (!stopped && enabled) timer = setTimeout(run, delayMs);
  };
  const enable = () => {
    enabled = true;
    showButton.remove();
  };

  slider.addEventListener('input', () => {
    shownTime.textContent = formatLength(time());
    enable();
    schedule(SLIDER_DELAY_MS);
  });
  showButton.addEventListener('click', () => {
    if (!currentDocument()) {
      status.textContent = 'The preview needs a valid document: see the problems listed under it.';
      return;
    }
    enable();
    schedule(0);
  });

  const element = h(
    'section',
    { class: 'card preview', 'aria-labelledby': 'preview-title' },
    h('h2', { id: 'preview-title' }, 'Preview'),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'preview-time' }, 'Time'),
      h('div', { class: 'range' }, slider, shownTime),
    ),
    image,
    status,
    problem,
    h('div', { class: 'actions' }, showButton),
    h(
      'p',
      { class: 'hint' },
      'Each preview is a still render (a draft JPEG of one frame), charged as one second of video.',
    ),
  );

  return {
    element,
    schedule,
    async idle() {
      clearTimeout(timer);
      again = false;
      while (running) await running;
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
