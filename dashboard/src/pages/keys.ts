import type { ApiKey, KeyMode, NewApiKey } from '../api.ts';
import { attempt, type Ctx, heading } from '../context.ts';
import { confirmDialog, copyButton, field, h, time } from '../dom.ts';
import { pager } from './pager.ts';

/** The secret of a key just created or rolled: shown once, with a copy button. */
function secretPanel(key: NewApiKey, note: string): HTMLElement {
  const input = h('input', { type: 'text', readonly: true, value: key.secret, class: 'secret', spellcheck: 'false' });
  const panel = h(
    'section',
    { class: 'card new-key', 'aria-labelledby': 'new-key-title' },
    h('h2', { id: 'new-key-title' }, `New ${key.mode} key ${key.prefix}…`),
    h('p', {}, 'Store it now: this is the only time it is shown. Only its hash is kept. ', note),
    field('Secret', input),
    h(
      'div',
      { class: 'actions' },
      copyButton('Copy key', () => key.secret),
      h('button', { type: 'button', class: 'secondary', onclick: () => panel.remove() }, 'Done, I stored it'),
    ),
  );
  input.addEventListener('focus', () => input.select());
  return panel;
}

/** List, create, roll and revoke the account's API keys. */
export async function keysPage(ctx: Ctx): Promise<undefined> {
  heading(ctx, 'API keys');
  const modes: KeyMode[] = ctx.mode === 'live' ? ['live', 'test'] : ['test'];
  const modeSelect = h(
    'select',
    { name: 'mode' },
    modes.map((m) => h('option', { value: m }, m)),
  );
  const filter = h(
    'select',
    { name: 'status' },
    h('option', { value: '' }, 'All'),
    h('option', { value: 'active' }, 'Active'),
    h('option', { value: 'revoked' }, 'Revoked'),
  );
  const problem = h('div', {});
  const fresh = h('div', { 'aria-live': 'polite' });
  const table = h('div', { class: 'table-wrap' });
  const pages = h('div', {});
  let page = 1;

  const create = h(
    'form',
    { class: 'card inline' },
    field(
      'Mode',
      modeSelect,
      ctx.mode === 'live' ? 'Test keys see test items only and are never charged.' : 'A test key makes test keys only.',
    ),
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Create key')),
  );
  create.addEventListener('submit', async (e) => {
    e.preventDefault();
    const key = await attempt(problem, () => ctx.api.createKey({ mode: modeSelect.value as KeyMode }));
    if (!key) return;
    fresh.replaceChildren(secretPanel(key, 'Use it as Authorization: Bearer <key>.'));
    ctx.announce(`Created ${key.mode} key ${key.prefix}. Copy it now.`);
    await load();
    fresh.querySelector('input')?.focus();
  });

  async function roll(key: ApiKey): Promise<void> {
    const text = key.current
      ? 'A new key replaces the one you are signed in with; the dashboard switches to it. Programs using the old key get 401 from now on.'
      : 'A new key is created first, then this one is revoked. Programs using it get 401 from now on.';
    if (!(await confirmDialog(`Roll ${key.prefix}…?`, text, 'Roll key'))) return;
    const rolled = await attempt(problem, () => ctx.api.rollKey(key.id));
    if (!rolled) return;
    if (key.current) ctx.replaceKey(rolled.created.secret);
    fresh.replaceChildren(secretPanel(rolled.created, `It replaces ${key.prefix}…, now revoked.`));
    ctx.announce(`Rolled ${key.prefix}: new key ${rolled.created.prefix}. Copy it now.`);
    await load();
    fresh.querySelector('input')?.focus();
  }

  async function revoke(key: ApiKey): Promise<void> {
    const text = key.current
      ? 'This is the key you are signed in with: you will be signed out. Programs using it get 401 from now on.'
      : 'Programs using it get 401 from now on. This cannot be undone.';
    if (!(await confirmDialog(`Revoke ${key.prefix}…?`, text, 'Revoke key'))) return;
    const done = await attempt(problem, () => ctx.api.revokeKey(key.id));
    if (!done) return;
    if (key.current) return ctx.signOut('You revoked the key you were signed in with.');
    ctx.announce(`Revoked ${key.prefix}.`);
    await load();
  }

  async function load(): Promise<void> {
    const status = (filter.value || undefined) as 'active' | 'revoked' | undefined;
    const list = await attempt(problem, () => ctx.api.listKeys({ page, page_size: 20, status }));
    if (!list) return;
    const rows = list.items.map((k) =>
      h(
        'tr',
        { 'data-key': k.id },
        h('td', {}, h('code', {}, `${k.prefix}…`), k.current ? h('span', { class: 'badge' }, 'this session') : null),
        h('td', {}, h('span', { class: `badge mode-${k.mode}` }, k.mode)),
        h('td', {}, time(k.createdAt)),
        h('td', {}, time(k.lastUsedAt)),
        h('td', {}, k.revokedAt ? ['revoked ', time(k.revokedAt)] : 'active'),
        h(
          'td',
          { class: 'row-actions' },
          k.revokedAt
            ? null
            : [
                h(
                  'button',
                  { type: 'button', class: 'secondary', 'aria-label': `Roll ${k.prefix}`, onclick: () => roll(k) },
                  'Roll',
                ),
                h(
                  'button',
                  { type: 'button', class: 'danger', 'aria-label': `Revoke ${k.prefix}`, onclick: () => revoke(k) },
                  'Revoke',
                ),
              ],
        ),
      ),
    );
    table.replaceChildren(
      h(
        'table',
        {},
        h('caption', { class: 'visually-hidden' }, 'API keys of this account'),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['Key', 'Mode', 'Created', 'Last used', 'Status', 'Actions'].map((c) => h('th', { scope: 'col' }, c)),
          ),
        ),
        h('tbody', {}, rows.length ? rows : h('tr', {}, h('td', { colspan: '6' }, 'No keys.'))),
      ),
    );
    pages.replaceChildren(
      pager(list, (p) => {
        page = p;
        void load();
      }),
    );
  }

  filter.addEventListener('change', () => {
    page = 1;
    void load();
  });
  ctx.main.append(
    h('p', {}, 'Keys authenticate API requests. The secret of a new key is shown once; lists show its prefix only.'),
    create,
    fresh,
    problem,
    h('div', { class: 'toolbar' }, field('Show', filter)),
    table,
    pages,
  );
  await load();
  return undefined;
}
