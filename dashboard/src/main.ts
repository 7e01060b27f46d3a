/**
 * The Framewright dashboard: sign in with an API key, then keys, renders, templates, scripts and
 * usage of that key's account, through the public API (./api.ts). Served at /dashboard by the API
 * itself (api/dashboard/routes.ts); docs/dashboard.md describes it.
 */
import { Api, ApiError, type KeyMode } from './api.ts';
import { type Ctx, errorView } from './context.ts';
import { fill, h } from './dom.ts';
import { keysPage } from './pages/keys.ts';
import { renderPage } from './pages/render.ts';
import { rendersPage } from './pages/renders.ts';
import { scriptsPage } from './pages/scripts.ts';
import { signInPage } from './pages/signin.ts';
import { templateEditorPage } from './pages/template-editor.ts';
import { templatesPage } from './pages/templates.ts';
import { usagePage } from './pages/usage.ts';
import { currentPath, go, match, type Route } from './router.ts';
import { forgetKey, storedKey, storeKey } from './session.ts';

const NAV: [path: string, label: string][] = [
  ['renders', 'Renders'],
  ['templates', 'Templates'],
  ['scripts', 'Scripts'],
  ['keys', 'API keys'],
  ['usage', 'Usage'],
];

const root = document.getElementById('app') as HTMLElement;

function signIn(reason?: string): void {
  signInPage(root, reason, async (key) => {
    const api = new Api(key, () => undefined);
    const usage = await api.usage(); // throws ApiError 401 for a key the API refuses
    storeKey(key);
    start(key, usage.mode);
  });
}

function start(key: string, mode: KeyMode): void {
  let stopPage: (() => void) | undefined;
  const main = h('main', { id: 'main', tabindex: '-1' });
  const live = h('div', { class: 'visually-hidden', role: 'status', 'aria-live': 'polite' });
  const signOut = (reason?: string) => {
    stopPage?.();
    stopPage = undefined;
    window.removeEventListener('hashchange', route);
    forgetKey();
    signIn(reason);
  };
  const api = new Api(key, () => signOut('The API refused the key (revoked or rolled). Sign in again.'));
  const ctx: Ctx = {
    api,
    mode,
    main,
    announce: (text) => {
      live.textContent = '';
      // A new text node each time, so the same words are announced again.
      setTimeout(() => {
        live.textContent = text;
      }, 50);
    },
    replaceKey: (secret) => {
      storeKey(secret);
      api.useKey(secret);
    },
    signOut,
  };
  const links = NAV.map(([path, label]) => h('a', { href: `#/${path}`, 'data-path': path }, label));
  fill(
    root,
    h('a', { class: 'skip', href: '#main' }, 'Skip to content'),
    h(
      'header',
      { class: 'top' },
      h('a', { class: 'brand', href: '#/renders' }, h('img', { src: '/dashboard/icon.svg', alt: '' }), 'Framewright'),
      h(
        'nav',
        { 'aria-label': 'Dashboard' },
        h(
          'ul',
          {},
          links.map((a) => h('li', {}, a)),
        ),
      ),
      h(
        'div',
        { class: 'session' },
        h('span', { class: `badge mode-${mode}` }, `${mode} key`),
        h('button', { type: 'button', class: 'secondary', onclick: () => signOut() }, 'Sign out'),
      ),
    ),
    main,
    live,
  );
  // The skip link moves focus without touching the route.
  root.querySelector('.skip')?.addEventListener('click', (e) => {
    e.preventDefault();
    main.focus();
  });

  // Each page draws into a section of its own: one still loading when the person moves on draws
  // into a detached section, never over the next page.
  let page = ctx;
  const routes: Route[] = [
    { pattern: 'renders', page: () => rendersPage(page) },
    { pattern: 'renders/:id', page: (p) => renderPage(page, p.id!) },
    { pattern: 'templates', page: () => templatesPage(page) },
    { pattern: 'templates/new', page: () => templateEditorPage(page, undefined) },
    { pattern: 'templates/:id', page: (p) => templateEditorPage(page, p.id!) },
    { pattern: 'scripts', page: () => scriptsPage(page, undefined) },
    { pattern: 'scripts/:id', page: (p) => scriptsPage(page, p.id!) },
    { pattern: 'keys', page: () => keysPage(page) },
    { pattern: 'usage', page: () => usagePage(page) },
  ];

  async function route(): Promise<void> {
    const path = currentPath();
    if (path === undefined) return; // an in-page anchor
    if (path === '') return go('renders');
    stopPage?.();
    stopPage = undefined;
    const section = h('div', { class: 'page' });
    main.replaceChildren(section);
    page = { ...ctx, main: section };
    for (const a of links) {
      if (path.split('/')[0] === a.dataset.path) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
    const found = match(routes, path);
    if (!found) {
      section.append(
        h('h1', { tabindex: '-1' }, 'Not found'),
        h('p', {}, 'No such page. ', h('a', { href: '#/renders' }, 'Renders')),
      );
      return;
    }
    try {
      const stop = (await found.route.page(found.params)) ?? undefined;
      if (section.isConnected) stopPage = stop;
      else stop?.(); // the person moved on meanwhile
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return; // signed out already
      section.append(errorView(err));
    }
    if (section.isConnected) section.querySelector('h1')?.focus();
  }
  window.addEventListener('hashchange', route);
  void route();
}

const saved = storedKey();
if (saved) {
  // A key kept from earlier in this tab: check it is still good before showing anything.
  new Api(saved, () => undefined).usage().then(
    (usage) => start(saved, usage.mode),
    (err) => {
      forgetKey();
      signIn(err instanceof ApiError && err.status === 401 ? 'The saved key was refused. Sign in again.' : undefined);
    },
  );
} else {
  signIn();
}
