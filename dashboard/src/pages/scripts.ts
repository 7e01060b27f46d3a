import type { MovieOptions, Script, ScriptRequest } from '../api.ts';
import { attempt, type Ctx, heading, idempotencyKey } from '../context.ts';
import { field, h } from '../dom.ts';
import { go } from '../router.ts';

const PRESETS: NonNullable<MovieOptions['preset']>[] = ['16:9', '9:16', '1:1', '4:5', '4:3'];

function text(name: string, opts: { max: number; rows?: number; required?: boolean }) {
  return opts.rows
    ? h('textarea', { name, rows: String(opts.rows), maxlength: String(opts.max), required: opts.required })
    : h('input', { type: 'text', name, maxlength: String(opts.max), required: opts.required });
}

function num(name: string, min: number, max: number, integer = true) {
  return h('input', { type: 'number', name, min: String(min), max: String(max), step: integer ? '1' : 'any' });
}

function check(name: string, label: string) {
  const input = h('input', { type: 'checkbox', name, id: `opt-${name}`, checked: true });
  return { input, el: h('div', { class: 'field check' }, input, h('label', { for: input.id }, label)) };
}

/** The brief form: every option of POST /v1/scripts (docs/api.md, Scripts). */
function briefForm(ctx: Ctx): HTMLElement {
  const brief = text('brief', { max: 2000, rows: 3, required: true });
  const source = text('sourceMaterial', { max: 30000, rows: 3 });
  const sceneCount = num('sceneCount', 1, 50);
  const target = num('targetDurationSec', 5, 3600, false);
  const language = text('language', { max: 50 });
  const tone = text('tone', { max: 200 });
  const audience = text('audience', { max: 200 });
  const structure = text('structure', { max: 2000, rows: 2 });
  const visualStyle = text('visualStyle', { max: 500 });
  const minWords = num('wordsMin', 1, 500);
  const maxWords = num('wordsMax', 1, 500);
  const prompts = check('includeImagePrompts', 'Image prompts');
  const title = check('includeTitle', 'Title');
  const description = check('includeDescription', 'Description');
  const problem = h('div', {});
  const submit = h('button', { type: 'submit' }, 'Generate script');
  const status = h('p', { class: 'hint', 'aria-live': 'polite' });

  const form = h(
    'form',
    { class: 'card' },
    field('Brief', brief, 'What the video is about, 1 to 2000 characters.'),
    field('Source material', source, 'Optional: text to transform; the script uses its substance, not its wording.'),
    h(
      'div',
      { class: 'grid' },
      field('Scenes', sceneCount, '1-50; empty: the model picks 10-14'),
      field('Target length (s)', target, 'Pacing guidance'),
      field('Language', language, 'Default English'),
      field('Tone', tone),
      field('Audience', audience),
      field('Visual style', visualStyle, 'Applied to every image prompt'),
      field('Words per scene, at least', minWords),
      field('Words per scene, at most', maxWords),
    ),
    field('Structure', structure, 'Free-text structural instructions'),
    h('fieldset', { class: 'inline' }, h('legend', {}, 'Include'), prompts.el, title.el, description.el),
    problem,
    h('div', { class: 'actions' }, submit),
    status,
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!form.reportValidity()) return;
    const body: ScriptRequest = { brief: brief.value };
    const put = (k: keyof ScriptRequest, v: string, asNumber = false) => {
      if (v.trim() !== '') (body as Record<string, unknown>)[k] = asNumber ? Number(v) : v;
    };
    put('sourceMaterial', source.value);
    put('sceneCount', sceneCount.value, true);
    put('targetDurationSec', target.value, true);
    put('language', language.value);
    put('tone', tone.value);
    put('audience', audience.value);
    put('structure', structure.value);
    put('visualStyle', visualStyle.value);
    if (minWords.value || maxWords.value) {
      body.wordsPerScene = {
        ...(minWords.value ? { min: Number(minWords.value) } : {}),
        ...(maxWords.value ? { max: Number(maxWords.value) } : {}),
      };
    }
    body.includeImagePrompts = prompts.input.checked;
    body.includeTitle = title.input.checked;
    body.includeDescription = description.input.checked;
    submit.disabled = true;
    status.textContent = 'Writing the script: this takes tens of seconds…';
    const script = await attempt(problem, () => ctx.api.createScript(body, idempotencyKey()));
    submit.disabled = false;
    status.textContent = '';
    if (script) go(`scripts/${script.id}`);
  });
  return form;
}

/** A script's scenes, and its turning into a movie document that can be edited and rendered. */
async function scriptView(ctx: Ctx, script: Script): Promise<HTMLElement> {
  const voices = (await ctx.api.voices()).items;
  const preset = h(
    'select',
    { name: 'preset' },
    PRESETS.map((p) => h('option', { value: p }, p)),
  );
  const voice = h(
    'select',
    { name: 'voiceId' },
    h('option', { value: '' }, 'Default for the language'),
    voices.map((v) => h('option', { value: v.id }, `${v.id} (${v.language}, ${v.engine})`)),
  );
  const movieText = h('textarea', { name: 'movie', rows: '16', class: 'code', spellcheck: 'false', hidden: true });
  const draft = h('input', { type: 'checkbox', id: 'movie-draft', checked: true });
  const problem = h('div', {});
  const renderButton = h('button', { type: 'button', hidden: true }, 'Render the movie');
  const draftField = h('div', { class: 'field check', hidden: true }, draft, h('label', { for: draft.id }, 'Draft'));
  const movieLabel = h('label', { for: 'movie-json', hidden: true }, 'Movie document (JSON, editable)');
  movieText.id = 'movie-json';

  const make = h('button', { type: 'button', class: 'secondary' }, 'Make a movie document');
  make.addEventListener('click', async () => {
    const options: MovieOptions = { preset: preset.value as MovieOptions['preset'] };
    if (voice.value) options.voiceId = voice.value as MovieOptions['voiceId'];
    const movie = await attempt(problem, () => ctx.api.scriptToMovie(script.id, options));
    if (!movie) return;
    movieText.value = JSON.stringify(movie, null, 2);
    for (const el of [movieText, renderButton, draftField, movieLabel]) el.hidden = false;
    ctx.announce('Movie document ready: edit it or render it.');
    movieText.focus();
  });
  renderButton.addEventListener('click', async () => {
    const render = await attempt(problem, async () => {
      const movie = JSON.parse(movieText.value) as Record<string, unknown>;
      return ctx.api.createRender({ movie: { ...movie, draft: draft.checked } }, idempotencyKey());
    });
    if (render) go(`renders/${render.id}`);
  });

  return h(
    'div',
    {},
    h('h2', {}, script.title ?? 'Untitled script'),
    script.description ? h('p', {}, script.description) : null,
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        {},
        h('caption', { class: 'visually-hidden' }, 'Scenes'),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['#', 'Narration', 'Image prompt'].map((c) => h('th', { scope: 'col' }, c)),
          ),
        ),
        h(
          'tbody',
          {},
          script.scenes.map((s) =>
            h('tr', {}, h('td', {}, String(s.index)), h('td', {}, s.voiceText), h('td', {}, s.imagePrompt ?? '—')),
          ),
        ),
      ),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'movie-title' },
      h('h2', { id: 'movie-title' }, 'Turn it into a movie'),
      h('div', { class: 'grid' }, field('Aspect', preset), field('Voice', voice)),
      h('div', { class: 'actions' }, make),
      movieLabel,
      movieText,
      draftField,
      problem,
      h('div', { class: 'actions' }, renderButton),
    ),
  );
}

/** Generate a script from a brief, or show one (#/scripts/scr_...). */
export async function scriptsPage(ctx: Ctx, id: string | undefined): Promise<undefined> {
  if (!id) {
    heading(ctx, 'Scripts');
    ctx.main.append(
      h(
        'p',
        {},
        'A narrated video script from a brief, written by the configured language model. Charged only on success.',
      ),
      briefForm(ctx),
    );
    return undefined;
  }
  const script = await ctx.api.getScript(id);
  heading(ctx, `Script ${id}`);
  ctx.main.append(h('p', {}, h('a', { href: '#/scripts' }, '← New script')), await scriptView(ctx, script));
  return undefined;
}
