import { h } from '../dom.ts';

/** "Page 2 of 5" with previous and next buttons, for any list envelope. */
export function pager(
  list: { page: number; pageSize: number; total: number; hasMore: boolean },
  go: (page: number) => void,
): HTMLElement {
  const last = Math.max(1, Math.ceil(list.total / list.pageSize));
  return h(
    'nav',
    { class: 'pager', 'aria-label': 'Pages' },
    h(
      'button',
      { type: 'button', class: 'secondary', disabled: list.page <= 1, onclick: () => go(list.page - 1) },
      'Previous',
    ),
    h('span', {}, `Page ${list.page} of ${last} · ${list.total} in all`),
    h(
      'button',
      { type: 'button', class: 'secondary', disabled: !list.hasMore, onclick: () => go(list.page + 1) },
      'Next',
    ),
  );
}
