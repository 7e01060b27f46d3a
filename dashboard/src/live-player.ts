/**
 * The live preview in the dashboard: the browser player (player/src, bundled with the dashboard)
 * with the dashboard's own controls (play and pause, a timeline that seeks while it is dragged,
 * the time) and its errors shown as the dashboard shows every API error (code, message, path).
 * The document is prepared by POST /v1/previews with the session's key (free: no render, no
 * credits) and drawn on the page's WebGL 2 by the worker's own frame graph.
 */
import type { FramewrightApiError } from '../../clients/typescript/src/index.ts';
import { FramewrightPlayer } from '../../player/src/player.ts';
import type { PreviewRequest, PreviewResource } from '../../player/src/preview-api.ts';
import { ApiError } from './api.ts';
import { type Ctx, errorView } from './context.ts';
import { h } from './dom.ts';
import { formatClock, formatLength } from './format.ts';

export type { PreviewRequest };

export interface LivePlayer {
  /**
   * The stage, its controls, its status and its problems. Its `player` property is the
   * FramewrightPlayer, as `<framewright-player>`'s is (the browser test reads frames through it);
   * `data-preview` is the id of the preview shown.
   */
  element: HTMLElement & { player: FramewrightPlayer };
  player: FramewrightPlayer;
  /**
   * Prepares `request` and shows it at the current time (playing on if it played). Resolves the
   * preview once it is shown, or undefined when it failed (the error shows in the panel, the
   * previous preview stays) or a later load superseded it.
   */
  load(request: PreviewRequest): Promise<PreviewResource | undefined>;
  /** Stops playing and frees the canvas (leaving the page). */
  destroy(): void;
}

let counter = 0;

/** An error of the player's API calls as the dashboard's ApiError (what errorView shows). */
function asApiError(err: unknown): unknown {
  if (err instanceof Error && err.name === 'FramewrightApiError') {
    const { status, envelope } = err as FramewrightApiError;
    return new ApiError(status, envelope.error, envelope.errors ?? [envelope.error], envelope.requestId);
  }
  return err;
}

function isAbort(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'AbortError';
}

/** A live player: `label` names its stage for screen readers. */
export function livePlayer(ctx: Ctx, label: string): LivePlayer {
  counter += 1;
  const rangeId = `live-time-${counter}`;
  const stage = h('div', { class: 'live-stage', role: 'img', 'aria-label': label });
  const button = h('button', { type: 'button', class: 'secondary play', disabled: true }, 'Play');
  const range = h('input', {
    type: 'range',
    id: rangeId,
    class: 'timeline',
    min: '0',
    max: '0',
    step: 'any',
    value: '0',
    disabled: true,
    'aria-valuetext': '0 s',
  });
  const clock = h('output', { for: rangeId, class: 'clock' }, `${formatClock(0)} / ${formatClock(0)}`);
  const status = h('p', { class: 'hint live-status', 'aria-live': 'polite' }, 'Preparing the preview…');
  const problem = h('div', { class: 'live-problem' });
  const player = new FramewrightPlayer(stage, { apiUrl: '', token: () => ctx.api.previewToken() });
  const element = Object.assign(
    h(
      'div',
      { class: 'live-player' },
      stage,
      h(
        'div',
        { class: 'live-controls' },
        button,
        h('label', { for: rangeId, class: 'visually-hidden' }, 'Time'),
        range,
        clock,
      ),
      status,
      problem,
    ),
    { player },
  );

  /** The timeline follows the player, but not while the person drags it. */
  let dragging = false;
  const showTime = () => {
    const t = player.currentTime;
    if (!dragging) range.value = String(t);
    range.setAttribute('aria-valuetext', `${formatLength(t)} of ${formatLength(player.duration)}`);
    clock.textContent = `${formatClock(t)} / ${formatClock(player.duration, true)}`;
  };

  // Seeks while dragging, the latest position winning: one seek at a time, then the newest asked for.
  let seeking = false;
  let wanted: number | undefined;
  const seek = async (sec: number) => {
    wanted = sec;
    if (seeking) return;
    seeking = true;
    try {
      while (wanted !== undefined) {
        const at = wanted;
        wanted = undefined;
        await player.seek(at);
      }
    } catch (err) {
      // A frame that could not be drawn (a clip the browser cannot decode there): said, not thrown.
      problem.replaceChildren(errorView(err));
    } finally {
      seeking = false;
      showTime();
    }
  };
  range.addEventListener('pointerdown', () => {
    dragging = true;
  });
  const drop = () => {
    dragging = false;
  };
  range.addEventListener('pointerup', drop);
  range.addEventListener('pointercancel', drop);
  range.addEventListener('input', () => {
    void seek(Number(range.value));
  });
  // Left and right step one frame (a range with step "any" would step a whole second).
  range.addEventListener('keydown', (e) => {
    if ((e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') || !player.fps) return;
    e.preventDefault();
    const frame = Math.round(player.currentTime * player.fps) + (e.key === 'ArrowRight' ? 1 : -1);
    void seek(Math.max(0, frame) / player.fps);
  });
  button.addEventListener('click', () => {
    if (player.paused) player.play();
    else player.pause();
  });
  player.addEventListener('timeupdate', showTime);
  player.addEventListener('play', () => {
    button.textContent = 'Pause';
  });
  for (const name of ['pause', 'ended']) {
    player.addEventListener(name, () => {
      button.textContent = 'Play';
      showTime();
    });
  }

  let generation = 0;
  return {
    element,
    player,
    async load(request) {
      const mine = ++generation;
      if (!player.preview) status.textContent = 'Preparing the preview…';
      try {
        const shown = await player.load(request);
        if (mine !== generation) return undefined;
        problem.replaceChildren();
        button.disabled = false;
        range.disabled = false;
        range.max = String(shown.duration);
        element.dataset.preview = shown.id;
        status.textContent = `${shown.width}×${shown.height}, ${formatLength(shown.duration)} at ${shown.fps} fps, drawn in this page: free, nothing is rendered or charged.`;
        showTime();
        return shown;
      } catch (err) {
        if (isAbort(err) || mine !== generation) return undefined;
        const shown = asApiError(err);
        if (shown instanceof ApiError && shown.status === 401) {
          ctx.signOut('The API refused the key (revoked or rolled). Sign in again.');
          return undefined;
        }
        problem.replaceChildren(errorView(shown));
        status.textContent = player.preview
          ? 'This version could not be previewed: the last one that could stays shown.'
          : 'The preview could not be prepared.';
        return undefined;
      }
    },
    destroy() {
      generation += 1;
      player.destroy();
    },
  };
}
