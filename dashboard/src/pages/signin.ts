import { errorView } from '../context.ts';
import { field, fill, h } from '../dom.ts';
import { KEY_SHAPE } from '../session.ts';

/** The sign-in form: an API key, checked against the API before anything else is shown. */
export function signInPage(
  root: HTMLElement,
  reason: string | undefined,
  submit: (key: string) => Promise<void>,
): void {
  document.title = 'Sign in · Framewright';
  const input = h('input', {
    type: 'password',
    name: 'key',
    required: true,
    autocomplete: 'off',
    spellcheck: 'false',
    autocapitalize: 'off',
    pattern: KEY_SHAPE.source.slice(1, -1),
    placeholder: 'fw_live_…',
  });
  const problem = h('div', {});
  const button = h('button', { type: 'submit' }, 'Sign in');
  const form = h(
    'form',
    { class: 'card', novalidate: true },
    field('API key', input, 'fw_live_… or fw_test_…: kept in this tab only, sent only in the Authorization header.'),
    problem,
    h('div', { class: 'actions' }, button),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const key = input.value.trim();
    problem.replaceChildren();
    if (!KEY_SHAPE.test(key)) {
      input.setAttribute('aria-invalid', 'true');
      problem.append(
        h(
          'p',
          { class: 'error', role: 'alert' },
          'An API key is fw_live_ or fw_test_ followed by 40 letters and digits.',
        ),
      );
      input.focus();
      return;
    }
    button.disabled = true;
    try {
      await submit(key);
    } catch (err) {
      input.setAttribute('aria-invalid', 'true');
      problem.append(errorView(err));
      input.focus();
    } finally {
      button.disabled = false;
    }
  });
  fill(
    root,
    h(
      'main',
      { id: 'main', class: 'signin' },
      h('h1', {}, h('img', { src: '/dashboard/icon.svg', alt: '' }), ' Framewright'),
      h('p', {}, 'Sign in with an API key to manage its account: keys, renders, templates, scripts and usage.'),
      reason ? h('p', { class: 'notice', role: 'status' }, reason) : null,
      form,
    ),
  );
  input.focus();
}
