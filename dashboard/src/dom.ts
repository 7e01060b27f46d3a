/**
 * The one way the dashboard makes elements. Text only ever goes in as text nodes (never HTML), so
 * nothing the API returns (names, messages, documents) can become markup or script.
 */
type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.replace(/^on/, ''), value);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  append(el, ...children);
  return el;
}

export function append(parent: Node, ...children: (Child | Child[])[]): void {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
  }
}

/** Replaces every child of `el`. */
export function fill(el: Element, ...children: (Child | Child[])[]): void {
  el.replaceChildren();
  append(el, ...children);
}

function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A <time> element: the local time shown, the exact one in `datetime` and the tooltip. */
export function time(iso: string | null | undefined, empty = 'never'): HTMLElement | string {
  if (!iso) return empty;
  return h('time', { datetime: iso, title: iso }, formatDate(iso));
}

/** A labelled control: <div class=field><label for=id>label</label>control hint</div>. */
export function field(
  label: string,
  control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement,
  hint?: string,
): HTMLDivElement {
  const id = control.id || uniqueId('f');
  control.id = id;
  const hintEl = hint ? h('p', { class: 'hint', id: `${id}-hint` }, hint) : null;
  if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
  return h('div', { class: 'field' }, h('label', { for: id }, label), control, hintEl);
}

let counter = 0;
function uniqueId(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}`;
}

/** Copies `text`; resolves whether it worked (the clipboard needs a secure context or localhost). */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** A button that copies what `text()` gives and says so on itself for a moment. */
export function copyButton(label: string, text: () => string | Promise<string>): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'secondary' }, label);
  button.addEventListener('click', async () => {
    const ok = await copyText(await text());
    button.textContent = ok ? 'Copied' : 'Copy failed: select and copy by hand';
    setTimeout(() => {
      button.textContent = label;
    }, 2000);
  });
  return button;
}

/**
 * Asks for confirmation in a modal <dialog> (focus moves into it and stays there; Escape cancels).
 * Resolves true when the person confirms. `dismissLabel` names the other button where "Cancel"
 * would be ambiguous (cancelling a render).
 */
export function confirmDialog(
  title: string,
  text: string,
  confirmLabel: string,
  dismissLabel = 'Cancel',
): Promise<boolean> {
  return new Promise((resolve) => {
    const titleId = uniqueId('dlg');
    const cancel = h('button', { type: 'button', class: 'secondary' }, dismissLabel);
    const ok = h('button', { type: 'button', class: 'danger' }, confirmLabel);
    const dialog = h(
      'dialog',
      { 'aria-labelledby': titleId },
      h('h2', { id: titleId }, title),
      h('p', {}, text),
      h('div', { class: 'actions' }, cancel, ok),
    );
    const done = (answer: boolean) => {
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    cancel.addEventListener('click', () => done(false));
    ok.addEventListener('click', () => done(true));
    dialog.addEventListener('cancel', (e) => {
      e.preventDefault();
      done(false);
    });
    // Tab and Shift+Tab cycle between the two buttons: past the last one the browser would move
    // focus out of the page (the rest of it is inert while the dialog is open).
    dialog.addEventListener('keydown', (e) => {
      if (e.key !== 'Tab') return;
      e.preventDefault();
      (document.activeElement === ok ? cancel : ok).focus();
    });
    document.body.append(dialog);
    dialog.showModal();
    cancel.focus();
  });
}
