import type { Render, RenderStatus } from '../api.ts';
import { attempt, type Ctx, heading } from '../context.ts';
import { field, h, time } from '../dom.ts';
import { formatLength } from '../format.ts';
import { pager } from './pager.ts';

const STATUSES: RenderStatus[] = ['queued', 'preparing', 'rendering', 'done', 'failed'];
export const FINAL: ReadonlySet<RenderStatus> = new Set(['done', 'failed']);
const POLL_MS = 2000;

export function statusBadge(r: Render): HTMLElement {
  return h('span', { class: `badge status-${r.status}` }, r.status);
}

/**
 * A finished render's thumbnail (a WebP, 320 px on the long side, shown at 80), or a dash. A
 * render finished before thumbnails existed has none: the image then gives way to the dash.
 */
function thumbnail(r: Render): HTMLElement {
  if (!r.thumbnailUrl) return h('span', { class: 'thumb-none', 'aria-hidden': 'true' }, '—');
  const img = h('img', {
    class: 'thumb',
    src: r.thumbnailUrl,
    alt: `Frame of ${r.id}`,
    loading: 'lazy',
    decoding: 'async',
  });
  img.addEventListener('error', () => img.replaceWith(h('span', { class: 'thumb-none', 'aria-hidden': 'true' }, '—')));
  return img;
}

export function progressBar(r: Render): HTMLProgressElement {
  return h(
    'progress',
    { max: '100', value: String(r.progress), 'aria-label': `Progress of ${r.id}` },
    `${r.progress}%`,
  );
}

/** The renders of the key's account and mode, newest first, filtered and paged; live while any runs. */
export async function rendersPage(ctx: Ctx): Promise<() => void> {
  heading(ctx, 'Renders');
  const filter = h(
    'select',
    { name: 'status' },
    h('option', { value: '' }, 'All'),
    STATUSES.map((s) => h('option', { value: s }, s)),
  );
  const problem = h('div', {});
  const table = h('div', { class: 'table-wrap' });
  const pages = h('div', {});
  let page = 1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  async function load(): Promise<void> {
    clearTimeout(timer);
    const status = (filter.value || undefined) as RenderStatus | undefined;
    const list = await attempt(problem, () => ctx.api.listRenders({ page, page_size: 20, status }));
    if (stopped) return;
    if (list) {
      const rows = list.items.map((r) =>
        h(
          'tr',
          {},
          h('td', { class: 'thumb-cell' }, thumbnail(r)),
          h('td', {}, h('a', { href: `#/renders/${r.id}` }, h('code', {}, r.id))),
          h('td', {}, statusBadge(r)),
          h('td', {}, progressBar(r), ` ${r.progress}%`),
          h('td', { title: r.durationSec === null ? null : `${r.durationSec} s` }, formatLength(r.durationSec)),
          h('td', {}, r.draft ? 'draft' : 'final', r.templateId ? h('span', { class: 'hint' }, ' · template') : null),
          h('td', {}, time(r.createdAt)),
        ),
      );
      table.replaceChildren(
        h(
          'table',
          {},
          h('caption', { class: 'visually-hidden' }, 'Renders'),
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Preview')),
              ['Render', 'Status', 'Progress', 'Length', 'Kind', 'Created'].map((c) => h('th', { scope: 'col' }, c)),
            ),
          ),
          h(
            'tbody',
            {},
            rows.length
              ? rows
              : h('tr', {}, h('td', { colspan: '7' }, 'No renders yet. Render a template to make one.')),
          ),
        ),
      );
      pages.replaceChildren(
        pager(list, (p) => {
          page = p;
          void load();
        }),
      );
    }
    // Poll only while something on the page can still change (or the last call failed).
    if (!list || list.items.some((r) => !FINAL.has(r.status))) timer = setTimeout(load, POLL_MS);
  }

  filter.addEventListener('change', () => {
    page = 1;
    void load();
  });
  ctx.main.append(
    h(
      'div',
      { class: 'toolbar' },
      field('Status', filter),
      h('a', { class: 'button', href: '#/templates' }, 'Render a template'),
    ),
    problem,
    table,
    pages,
  );
  await load();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
