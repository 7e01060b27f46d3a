import { attempt, type Ctx, heading } from '../context.ts';
import { h, time } from '../dom.ts';
import { pager } from './pager.ts';

/** The templates of the key's account and mode, newest first. */
export async function templatesPage(ctx: Ctx): Promise<undefined> {
  heading(ctx, 'Templates');
  const problem = h('div', {});
  const table = h('div', { class: 'table-wrap' });
  const pages = h('div', {});
  let page = 1;
  async function load(): Promise<void> {
    const list = await attempt(problem, () => ctx.api.listTemplates({ page, page_size: 20 }));
    if (!list) return;
    const rows = list.items.map((t) =>
      h(
        'tr',
        {},
        h('td', {}, h('a', { href: `#/templates/${t.id}` }, t.name)),
        h('td', {}, Object.keys(t.variables).join(', ') || '—'),
        h('td', {}, time(t.updatedAt)),
      ),
    );
    table.replaceChildren(
      h(
        'table',
        {},
        h('caption', { class: 'visually-hidden' }, 'Templates'),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['Name', 'Variables', 'Updated'].map((c) => h('th', { scope: 'col' }, c)),
          ),
        ),
        h('tbody', {}, rows.length ? rows : h('tr', {}, h('td', { colspan: '3' }, 'No templates yet.'))),
      ),
    );
    pages.replaceChildren(
      pager(list, (p) => {
        page = p;
        void load();
      }),
    );
  }
  ctx.main.append(
    h('div', { class: 'toolbar' }, h('a', { class: 'button', href: '#/templates/new' }, 'New template')),
    problem,
    table,
    pages,
  );
  await load();
  return undefined;
}
