import { ApiError, type Render } from '../api.ts';
import { type Ctx, errorView, idempotencyKey } from '../context.ts';
import { h } from '../dom.ts';
import { formatLength } from '../format.ts';
import { type LivePlayer, livePlayer, type PreviewRequest } from '../live-player.ts';

type Json = Record<string, unknown>;

/**
 * How often the still render is asked for its state while it runs: a still takes a second or
 * two, and every ask counts against the key's rate limit (60 a minute on the trial plan), shared
 * with the rest of the dashboard.
 */
const POLL_MS = 800;
/** The first ask: a still is rarely done sooner. */
const FIRST_POLL_MS = 1200;

export interface PreviewPanel {
  element: HTMLElement;
  /** The live preview of the current document and variables in `delayMs` (debounced: a later call replaces it). */
  schedule(delayMs: number): void;
  /** Resolves once no still render runs (the trial plan renders one at a time). */
  idle(): Promise<void>;
  stop(): void;
}

/**
 * The document being edited, live: the browser player (../live-player.ts) plays it as it is typed
 * and as its variables change, prepared by POST /v1/previews with the session's key (free: no
 * render, no credits; the same document is answered from the API's cache). It starts when the
 * template opens. A load that fails (a finding, RATE_LIMITED) shows its error in the panel and the
 * last preview that loaded stays shown.
 *
 * "Render this frame exactly" is the paid check: a real still render through the API (POST
 * /v1/renders, the document with `output: { format: "jpeg", time }` at the player's time and
 * `draft: true`: half size, watermarked, charged as one second of video), shown below the player;
 * one at a time. Its errors (a creation refused, a render failed) show under it.
 */
export function previewPanel(ctx: Ctx, currentDocument: () => Json | undefined, variables: () => Json): PreviewPanel {
  const live: LivePlayer = livePlayer(ctx, 'The live preview of the document');
  const stillButton = h('button', { type: 'button', class: 'secondary' }, 'Render this frame exactly');
  const image = h('img', { class: 'frame-image preview-frame', alt: 'Preview frame at 0 s', hidden: true });
  const stillStatus = h('p', { class: 'hint still-status', 'aria-live': 'polite' });
  const stillProblem = h('div', { class: 'still-problem' });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  /** What the player was last asked to show (a failed load is asked again on the next change). */
  let asked: string | undefined;
  /** What the still shown was rendered from, and what its status says. */
  let still: { key: string; text: string } | undefined;

  const requestOf = (doc: Json) => ({ movie: doc, variables: variables() }) as PreviewRequest;

  function loadLive(): void {
    const doc = currentDocument();
    if (!doc || stopped) return;
    const request = requestOf(doc);
    const key = JSON.stringify(request);
    if (key === asked) return;
    asked = key;
    void live.load(request).then((shown) => {
      if (!shown && asked === key && !stopped) asked = undefined;
      // The still stays, said to be of another version than the one playing.
      if (shown && still)
        stillStatus.textContent =
          still.key === key
            ? still.text
            : `${still.text} It is of an earlier version of the document or its variables.`;
    });
  }

  /** A still that failed takes the place of the one before. */
  function forgetStill(): void {
    still = undefined;
    image.hidden = true;
  }

  async function renderStill(): Promise<void> {
    const doc = currentDocument();
    if (!doc) {
      stillStatus.textContent = 'The still needs a valid document: see the problems listed under it.';
      return;
    }
    const at = live.player.preview ? live.player.currentTime : 0;
    const key = JSON.stringify(requestOf(doc));
    stillStatus.textContent = `Rendering the frame at ${formatLength(at)}…`;
    stillProblem.replaceChildren();
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
      forgetStill();
      stillProblem.replaceChildren(errorView(err));
      stillStatus.textContent = err instanceof ApiError ? 'The still could not be rendered.' : 'The still failed.';
      return;
    }
    if (stopped) return;
    if (render.status === 'failed' || !render.outputUrl) {
      forgetStill();
      stillProblem.replaceChildren(
        h(
          'div',
          { class: 'error', role: 'alert' },
          h('p', {}, h('strong', {}, render.error?.code ?? 'RENDER_FAILED'), ' ', render.error?.message ?? ''),
          render.error?.path ? h('p', {}, h('code', { class: 'path' }, render.error.path)) : null,
        ),
      );
      stillStatus.textContent = 'The still failed.';
      return;
    }
    image.src = render.outputUrl;
    image.alt = `Preview frame at ${formatLength(at)}`;
    image.hidden = false;
    image.dataset.time = String(at);
    image.dataset.render = render.id;
    still = {
      key,
      text: `The frame at ${formatLength(at)} of ${formatLength(render.durationSec)}, rendered (draft: half size, watermarked).`,
    };
    stillStatus.textContent = still.text;
  }

  stillButton.addEventListener('click', () => {
    if (running || stopped) return;
    stillButton.disabled = true;
    running = renderStill().finally(() => {
      running = undefined;
      stillButton.disabled = false;
    });
  });

  const element = h(
    'section',
    { class: 'card preview', 'aria-labelledby': 'preview-title' },
    h('h2', { id: 'preview-title' }, 'Preview'),
    live.element,
    h('div', { class: 'actions' }, stillButton),
    stillStatus,
    stillProblem,
    image,
    h(
      'p',
      { class: 'hint' },
      'The live preview is drawn in this page and costs nothing. “Render this frame exactly” makes a still render ' +
        'of the frame shown (a draft JPEG), charged as one second of video and listed with the renders.',
    ),
  );

  return {
    element,
    schedule(delayMs) {
      clearTimeout(timer);
      if (!stopped) timer = setTimeout(loadLive, delayMs);
    },
    async idle() {
      while (running) await running;
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      live.destroy();
    },
  };
}
