import type { ErrorBody, Template, TemplateCheck, VariableManifest, Warning } from '../api.ts';
import { ApiError } from '../api.ts';
import { attempt, type Ctx, heading, idempotencyKey } from '../context.ts';
import { append, confirmDialog, field, fill, h } from '../dom.ts';
import { locate, locateAll, syntaxErrorLine } from '../json-locate.ts';
import { go } from '../router.ts';
import { type VariablesForm, variablesForm } from '../variables-form.ts';
import { previewPanel } from './preview.ts';

/** What a new template starts from: small, quick to render, one variable of each common kind. */
const STARTER = {
  schema: 'v1',
  preset: '16:9',
  resolution: '480p',
  variables: {
    name: { type: 'string', default: 'world', description: 'Who is greeted.' },
    accent: { type: 'color', default: '#ffd400' },
    mood: { type: 'enum', options: ['calm', 'bold'], default: 'calm' },
  },
  scenes: [
    {
      id: 'intro',
      duration: 2,
      background: '#1a2238',
      elements: [{ id: 'title', type: 'text', text: 'A {{mood}} hello, {{name}}!', color: '{{accent}}', fontSize: 56 }],
    },
  ],
};

const CHECK_DELAY_MS = 400;
/** After a valid check (or a variable's change), the live preview loads it this much later. */
const PREVIEW_DELAY_MS = 400;

/**
 * Create or edit a template: the document checked as it is typed, played live as it changes (and
 * as its variables do), a form from its variables, render.
 */
export async function templateEditorPage(ctx: Ctx, id: string | undefined): Promise<() => void> {
  let template: Template | undefined = id ? await ctx.api.getTemplate(id) : undefined;
  heading(ctx, template ? `Template ${template.name}` : 'New template');

  const name = h('input', { type: 'text', name: 'name', required: true, value: template?.name ?? 'Greeting' });
  const doc = h('textarea', {
    name: 'document',
    rows: '22',
    spellcheck: 'false',
    autocapitalize: 'off',
    class: 'code',
    'aria-describedby': 'findings',
  });
  doc.value = JSON.stringify(template?.body ?? STARTER, null, 2);
  const findings = h('div', { id: 'findings', class: 'findings', 'aria-live': 'polite' });
  const problem = h('div', {});
  const formSlot = h('div', {});
  const draft = h('input', { type: 'checkbox', id: 'draft', name: 'draft', checked: true });
  const saveButton = h('button', { type: 'submit' }, template ? 'Save' : 'Create template');
  const renderButton = h('button', { type: 'button' }, 'Render');
  const renderProblem = h('div', {});
  let form: VariablesForm = variablesForm({});
  let manifestShown = '';
  let seq = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let dirty = false;
  /** The last document the API found valid: what the preview plays. */
  let valid: Record<string, unknown> | undefined;
  const preview = previewPanel(
    ctx,
    () => valid,
    () => form.values(),
  );
  formSlot.addEventListener('input', () => {
    if (valid) preview.schedule(PREVIEW_DELAY_MS);
  });

  function showForm(manifest: VariableManifest): void {
    const key = JSON.stringify(manifest);
    if (key === manifestShown) return; // keep what the person entered
    manifestShown = key;
    form = variablesForm(manifest);
    formSlot.replaceChildren(form.element);
  }

  /** A finding, pointing at its line; a click selects it in the editor. */
  function findingItem(f: ErrorBody | Warning, spans: ReturnType<typeof locateAll> | undefined): HTMLElement {
    const span = spans && f.path !== undefined ? locate(spans, f.path) : undefined;
    const where = f.path ? h('code', { class: 'path' }, f.path) : h('code', { class: 'path' }, '(document)');
    const jump = span
      ? h(
          'button',
          {
            type: 'button',
            class: 'link',
            onclick: () => {
              doc.focus();
              doc.setSelectionRange(span.start, span.end);
            },
          },
          `line ${span.line}`,
        )
      : null;
    return h(
      'li',
      { 'data-path': f.path ?? '' },
      jump,
      jump ? ' · ' : '',
      where,
      ' ',
      h('strong', {}, f.code),
      ': ',
      f.message,
    );
  }

  function showFindings(result: TemplateCheck, spans: ReturnType<typeof locateAll>): void {
    doc.setAttribute('aria-invalid', String(!result.valid));
    fill(
      findings,
      result.valid
        ? h('p', { class: 'ok' }, 'No problems found.')
        : h(
            'div',
            { class: 'error' },
            h('p', {}, `${result.errors.length} problem(s):`),
            h(
              'ul',
              {},
              result.errors.map((f) => findingItem(f, spans)),
            ),
          ),
      result.warnings.length
        ? h(
            'div',
            { class: 'warning' },
            h('p', {}, 'Warnings:'),
            h(
              'ul',
              {},
              result.warnings.map((w) => findingItem(w, spans)),
            ),
          )
        : null,
    );
  }

  /** Parses locally (syntax), then asks the API (POST /v1/templates/check) for the findings. */
  async function check(): Promise<TemplateCheck | undefined> {
    const mine = ++seq;
    let body: unknown;
    try {
      body = JSON.parse(doc.value);
    } catch (err) {
      const line = syntaxErrorLine(doc.value, err);
      doc.setAttribute('aria-invalid', 'true');
      findings.replaceChildren(
        h(
          'div',
          { class: 'error' },
          h('p', {}, `JSON syntax error${line ? ` on line ${line}` : ''}: `, String((err as Error).message)),
        ),
      );
      return undefined;
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      findings.replaceChildren(h('div', { class: 'error' }, h('p', {}, 'The document must be a JSON object.')));
      return undefined;
    }
    try {
      const result = await ctx.api.checkTemplate(body as Record<string, unknown>);
      if (mine !== seq) return undefined; // the text changed meanwhile
      showFindings(result, locateAll(doc.value));
      if (result.valid) {
        showForm(result.variables);
        const changed = JSON.stringify(body) !== JSON.stringify(valid);
        valid = body as Record<string, unknown>;
        if (changed) preview.schedule(PREVIEW_DELAY_MS);
      }
      return result;
    } catch (err) {
      if (mine === seq) findings.replaceChildren(h('div', { class: 'error' }, h('p', {}, (err as Error).message)));
      return undefined;
    }
  }

  doc.addEventListener('input', () => {
    dirty = true;
    clearTimeout(timer);
    findings.replaceChildren(h('p', { class: 'hint' }, 'Checking…'));
    timer = setTimeout(check, CHECK_DELAY_MS);
  });
  name.addEventListener('input', () => {
    dirty = true;
  });

  async function save(): Promise<Template | undefined> {
    const result = await check();
    if (!result?.valid) {
      doc.focus();
      return undefined;
    }
    const body = JSON.parse(doc.value) as Record<string, unknown>;
    const saved = await attempt(problem, () =>
      template
        ? ctx.api.updateTemplate(template.id, { name: name.value, body })
        : ctx.api.createTemplate({ name: name.value, body }),
    );
    if (!saved) return undefined;
    const created = !template;
    template = saved;
    dirty = false;
    ctx.announce(created ? `Created template ${saved.name}.` : `Saved template ${saved.name}.`);
    if (created) history.replaceState(null, '', `#/templates/${saved.id}`);
    saveButton.textContent = 'Save';
    return saved;
  }

  const editor = h(
    'form',
    { class: 'card', novalidate: true },
    field('Name', name),
    field('Document (JSON)', doc, 'A movie document with {{variables}}; problems are listed below as you type.'),
    findings,
    problem,
    h('div', { class: 'actions' }, saveButton),
  );
  editor.addEventListener('submit', (e) => {
    e.preventDefault();
    void save();
  });

  renderButton.addEventListener('click', async () => {
    renderButton.disabled = true;
    try {
      const saved = dirty || !template ? await save() : template;
      if (!saved) return;
      // A plan may render one at a time: a still of the preview's finishes first.
      await preview.idle();
      const render = await attempt(renderProblem, () =>
        ctx.api.renderTemplate(saved.id, { variables: form.values(), draft: draft.checked }, idempotencyKey()),
      );
      if (render) go(`renders/${render.id}`);
    } finally {
      renderButton.disabled = false;
    }
  });

  const renderCard = h(
    'section',
    { class: 'card', 'aria-labelledby': 'render-title' },
    h('h2', { id: 'render-title' }, 'Render it'),
    formSlot,
    h(
      'div',
      { class: 'field check' },
      draft,
      h('label', { for: 'draft' }, 'Draft'),
      h('span', { class: 'hint' }, ' fast, low resolution, watermarked, half price'),
    ),
    renderProblem,
    h('div', { class: 'actions' }, renderButton),
  );

  const remove = template
    ? h(
        'button',
        {
          type: 'button',
          class: 'danger',
          onclick: async () => {
            const t = template;
            if (!t || !(await confirmDialog(`Delete ${t.name}?`, 'Renders made from it stay.', 'Delete'))) return;
            const ok = await attempt(problem, async () => {
              await ctx.api.deleteTemplate(t.id);
              return true;
            });
            if (ok) go('templates');
          },
        },
        'Delete template',
      )
    : null;

  append(
    ctx.main,
    h('p', {}, h('a', { href: '#/templates' }, '← All templates')),
    h('div', { class: 'split' }, editor, h('div', {}, preview.element, renderCard)),
    remove,
  );
  showForm((template?.variables ?? {}) as VariableManifest);
  await check().catch((err) => {
    if (!(err instanceof ApiError)) throw err;
  });
  return () => {
    clearTimeout(timer);
    preview.stop();
  };
}
