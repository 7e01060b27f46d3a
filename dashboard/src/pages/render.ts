import { ApiError, type Render } from '../api.ts';
import { attempt, type Ctx, errorView, heading } from '../context.ts';
import { curlCommand } from '../curl.ts';
import { confirmDialog, copyButton, field, h, time } from '../dom.ts';
import { formatLength, outputKindOf } from '../format.ts';
import { type LivePlayer, livePlayer, type PreviewRequest } from '../live-player.ts';
import { pythonCode, typescriptCode } from '../request-code.ts';
import { FINAL, progressBar, statusBadge } from './renders.ts';

const POLL_MS = 1000;

/** The forms the request that made a render is offered in: its name, and the label of its text. */
const FORMATS = {
  curl: { name: 'curl', label: 'curl command', code: curlCommand },
  typescript: { name: 'TypeScript', label: 'TypeScript code', code: typescriptCode },
  python: { name: 'Python', label: 'Python code', code: pythonCode },
} as const;
type Format = keyof typeof FORMATS;

/**
 * One render: live status and progress, the MP4 in the page when done (and, on request, its
 * document played live beside it), the error when failed.
 */
export async function renderPage(ctx: Ctx, id: string): Promise<() => void> {
  heading(ctx, `Render ${id}`);
  const problem = h('div', {});
  const summary = h('div', {});
  const result = h('div', {});
  const codeText = h('pre', { class: 'code', tabindex: '0', 'aria-label': FORMATS.curl.label });
  const formatSelect = h(
    'select',
    { name: 'format' },
    Object.entries(FORMATS).map(([value, f]) => h('option', { value }, f.name)),
  );
  let movie: Record<string, unknown> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let lastStatus = '';
  let render: Render | undefined;
  let live: LivePlayer | undefined;

  /** The request that made the render, as `format`: curl, or a program on a typed client. */
  const code = async (format: Format) => {
    movie ??= await ctx.api.renderMovie(id);
    return FORMATS[format].code(location.origin, render ?? { webhookUrl: null }, movie);
  };
  const show = async () => {
    const format = formatSelect.value as Format;
    const text = await code(format);
    codeText.setAttribute('aria-label', FORMATS[format].label);
    codeText.textContent = text;
  };
  formatSelect.addEventListener('change', () => void attempt(problem, show));
  const details = h(
    'details',
    { class: 'card' },
    h('summary', {}, 'The request that made it'),
    h(
      'p',
      {},
      'The render again, as curl or as a program on the typed TypeScript or Python client (clients/ in the ' +
        'Framewright repository). Each reads the key from $FRAMEWRIGHT_API_KEY and never contains it.',
    ),
    field('Format', formatSelect),
    codeText,
  );
  details.addEventListener('toggle', () => {
    if (details.open && !codeText.textContent) void attempt(problem, show);
  });

  // Cancel: offered while the render has not finished (POST /v1/renders/{id}/cancel).
  const cancelSlot = h('span', {});
  const cancelButton = h('button', { type: 'button', class: 'danger' }, 'Cancel render');
  cancelButton.addEventListener('click', async () => {
    const text =
      'It stops now and ends failed (RENDER_CANCELLED). Nothing is charged and its reserved credits are released. This cannot be undone.';
    if (!(await confirmDialog(`Cancel render ${id}?`, text, 'Cancel render', 'Keep it'))) return;
    cancelButton.disabled = true;
    const cancelled = await attempt(problem, () => ctx.api.cancelRender(id));
    cancelButton.disabled = false;
    if (!cancelled || stopped) return;
    clearTimeout(timer);
    render = cancelled;
    draw(cancelled);
    ctx.announce('Render cancelled. Nothing was charged.');
  });

  function draw(r: Render): void {
    if (FINAL.has(r.status)) cancelSlot.replaceChildren();
    else if (!cancelButton.isConnected) cancelSlot.replaceChildren(cancelButton);
    summary.replaceChildren(
      h(
        'dl',
        { class: 'facts' },
        h('dt', {}, 'Status'),
        h('dd', { 'data-status': r.status }, statusBadge(r)),
        h('dt', {}, 'Progress'),
        h('dd', {}, progressBar(r), ` ${r.progress}%`),
        h('dt', {}, 'Kind'),
        h('dd', {}, r.draft ? 'draft' : 'final', r.watermark ? ', watermarked' : ''),
        h('dt', {}, 'Length'),
        h('dd', {}, r.durationSec === null ? 'not known yet' : `${formatLength(r.durationSec)} at ${r.fps} fps`),
        h('dt', {}, 'Template'),
        h('dd', {}, r.templateId ? h('a', { href: `#/templates/${r.templateId}` }, r.templateId) : 'none'),
        h('dt', {}, 'Created'),
        h('dd', {}, time(r.createdAt)),
        h('dt', {}, 'Charged'),
        h('dd', {}, r.meteredMinutes === null ? '—' : `${r.meteredMinutes} weighted minutes`),
        h('dt', {}, 'Expires'),
        h('dd', {}, time(r.expiresAt, '—')),
      ),
    );
    if (r.status === lastStatus) return;
    lastStatus = r.status;
    ctx.announce(`Render ${r.status}.`);
    if (r.status === 'done' && r.outputUrl) {
      // By its format: a video with its poster, a still as an image, sound alone in a player.
      const kind = outputKindOf(r);
      const shown =
        kind === 'still'
          ? h('img', { class: 'frame-image', src: r.outputUrl, alt: `The still image of render ${r.id}` })
          : kind === 'video'
            ? h('video', {
                src: r.outputUrl,
                poster: r.posterUrl,
                controls: true,
                preload: 'metadata',
                playsinline: true,
              })
            : h('audio', { src: r.outputUrl, controls: true, preload: 'metadata' });
      result.replaceChildren(
        h(
          'div',
          { class: 'compare' },
          h(
            'figure',
            { class: 'player' },
            shown,
            h(
              'figcaption',
              {},
              h('a', { href: r.outputUrl, download: true }, `Download the ${kind === 'still' ? 'image' : kind}`),
              ' (the link works without a key until it expires)',
            ),
          ),
          liveCard(),
        ),
      );
    } else if (r.status === 'failed' && r.error) {
      const err = r.error;
      result.replaceChildren(
        h(
          'div',
          { class: 'error', role: 'alert' },
          h('p', {}, h('strong', {}, err.code), ' ', err.message),
          err.path ? h('p', {}, 'At ', h('code', { class: 'path' }, err.path)) : null,
          h('p', {}, h('a', { href: err.docsUrl }, `What ${err.code} means`)),
        ),
      );
    }
  }

  /**
   * The render's resolved document (GET /v1/renders/{id}/movie) played live in the page, on
   * request: a preview is free, but opening a render prepares nothing.
   */
  function liveCard(): HTMLElement {
    const playButton = h('button', { type: 'button', class: 'secondary' }, 'Play the document');
    const liveProblem = h('div', {});
    const card = h(
      'section',
      { class: 'card live', 'aria-labelledby': 'live-title' },
      h('h2', { id: 'live-title' }, 'The document, live'),
      h(
        'p',
        { class: 'hint' },
        "This render's document drawn in the page by the player, as it is now (its assets fetched again): free, nothing is rendered or charged.",
      ),
      liveProblem,
      h('div', { class: 'actions' }, playButton),
    );
    playButton.addEventListener('click', async () => {
      playButton.disabled = true;
      const doc = await attempt(liveProblem, async () => (movie ??= await ctx.api.renderMovie(id)));
      if (!doc || stopped) {
        playButton.disabled = false;
        return;
      }
      live ??= livePlayer(ctx, `The document of render ${id}, live`);
      playButton.closest('.actions')?.remove();
      card.append(live.element);
      const shown = await live.load({ movie: doc } as PreviewRequest);
      if (shown && !stopped) live.player.play();
    });
    return card;
  }

  async function poll(): Promise<void> {
    try {
      const got = await ctx.api.getRender(id);
      // Stopped, or cancelled from this page while the answer was on its way.
      if (stopped || (render && FINAL.has(render.status))) return;
      render = got;
      problem.replaceChildren();
      draw(render);
      if (!FINAL.has(render.status)) timer = setTimeout(poll, POLL_MS);
    } catch (err) {
      if (stopped) return;
      problem.replaceChildren(errorView(err));
      // No such render stays so; anything else (a lost connection, a 503) is tried again.
      if (!(err instanceof ApiError && err.status === 404)) timer = setTimeout(poll, POLL_MS * 5);
    }
  }

  ctx.main.append(
    h('p', {}, h('a', { href: '#/renders' }, '← All renders')),
    problem,
    summary,
    result,
    h(
      'div',
      { class: 'actions' },
      cancelSlot,
      copyButton('Copy as curl', () => code('curl')),
      copyButton('Copy as TypeScript', () => code('typescript')),
      copyButton('Copy as Python', () => code('python')),
    ),
    details,
  );
  await poll();
  return () => {
    stopped = true;
    clearTimeout(timer);
    live?.destroy();
  };
}
