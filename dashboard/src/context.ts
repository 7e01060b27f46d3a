import type { Api, KeyMode } from './api.ts';
import { ApiError } from './api.ts';
import { h } from './dom.ts';

/** What every page gets: the client, where to draw, and the session's few actions. */
export interface Ctx {
  api: Api;
  /** The mode of the signed-in key: a test key sees and makes test items only. */
  mode: KeyMode;
  main: HTMLElement;
  /** Says `text` to screen readers (a polite live region) without moving focus. */
  announce(text: string): void;
  /** The session's key was rolled: go on with the new one. */
  replaceKey(secret: string): void;
  signOut(reason?: string): void;
}

/** The page's heading and title; focus moves to it on navigation, as a page load would. */
export function heading(ctx: Ctx, text: string): HTMLHeadingElement {
  document.title = `${text} · Framewright`;
  const h1 = h('h1', { tabindex: '-1' }, text);
  ctx.main.append(h1);
  return h1;
}

/** An error as a person reads it: code, message, and the field it is about. */
export function errorView(err: unknown): HTMLElement {
  if (err instanceof ApiError) {
    return h(
      'div',
      { class: 'error', role: 'alert' },
      h('p', {}, h('strong', {}, err.body.code), ' ', err.body.message),
      err.errors.length > 1 || err.body.path
        ? h(
            'ul',
            {},
            err.errors.map((e) =>
              h('li', {}, e.path ? h('code', { class: 'path' }, e.path) : null, e.path ? ': ' : '', e.message),
            ),
          )
        : null,
      err.requestId ? h('p', { class: 'hint' }, `Request ${err.requestId}`) : null,
    );
  }
  return h('div', { class: 'error', role: 'alert' }, h('p', {}, String(err instanceof Error ? err.message : err)));
}

/** Runs `fn`, showing its error in `where` (replacing what was there) instead of throwing. */
export async function attempt<T>(where: HTMLElement, fn: () => Promise<T>): Promise<T | undefined> {
  where.replaceChildren();
  try {
    return await fn();
  } catch (err) {
    where.replaceChildren(errorView(err));
    return undefined;
  }
}

/** A fresh Idempotency-Key per user action, so a retried click never makes two renders. */
export function idempotencyKey(): string {
  // getRandomValues, not randomUUID: the latter exists only in secure contexts (https, localhost),
  // and a self-hosted dashboard may be reached over plain http on a private network.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `dash-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
