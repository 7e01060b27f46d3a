import type { VariableManifest } from './api.ts';
import { field, h } from './dom.ts';

type Decl = VariableManifest[string];
type Control = HTMLInputElement | HTMLSelectElement;

const HEX6 = /^#[0-9a-fA-F]{6}$/;

/** One typed input per declared variable, its default filled in. */
function control(name: string, decl: Decl): Control {
  const def = decl.default;
  const text = def === undefined || def === null ? '' : String(def);
  switch (decl.type) {
    case 'enum':
      return h(
        'select',
        { name },
        (decl.options ?? []).map((o) => h('option', { value: o, selected: o === text }, o)),
      );
    case 'boolean':
      return h('input', { type: 'checkbox', name, checked: def === true || def === 'true' });
    case 'number':
      return h('input', { type: 'number', name, step: 'any', value: text, inputmode: 'decimal' });
    case 'url':
      return h('input', { type: 'url', name, value: text, placeholder: 'https://…' });
    case 'color':
      // The colour picker speaks #rrggbb only; other CSS colours (names, rgba) stay text.
      return HEX6.test(text) || text === ''
        ? h('input', { type: 'color', name, value: text || '#000000' })
        : h('input', { type: 'text', name, value: text });
    default:
      return h('input', { type: 'text', name, value: text });
  }
}

export interface VariablesForm {
  element: HTMLElement;
  /** The values entered, by name (an empty field is left out: the declared default applies). */
  values(): Record<string, string | number | boolean>;
}

/** A form generated from a template's declared variables (docs/movie.md, variables). */
export function variablesForm(manifest: VariableManifest): VariablesForm {
  const entries = Object.entries(manifest);
  const controls = new Map<string, Control>();
  const fields = entries.map(([name, decl]) => {
    const c = control(name, decl);
    controls.set(name, c);
    const hint = [decl.type, decl.description].filter(Boolean).join(' · ');
    if (c instanceof HTMLInputElement && c.type === 'checkbox') {
      const id = `var-${name}`;
      c.id = id;
      return h(
        'div',
        { class: 'field check' },
        c,
        h('label', { for: id }, name),
        h('span', { class: 'hint' }, ` ${hint}`),
      );
    }
    return field(name, c, hint);
  });
  return {
    element: h(
      'fieldset',
      { class: 'variables' },
      h('legend', {}, 'Variables'),
      entries.length ? fields : h('p', { class: 'hint' }, 'This template declares no variables.'),
    ),
    values: () => {
      const out: Record<string, string | number | boolean> = {};
      for (const [name, c] of controls) {
        if (c instanceof HTMLInputElement && c.type === 'checkbox') out[name] = c.checked;
        else if (c instanceof HTMLInputElement && c.type === 'number') {
          if (c.value !== '') out[name] = Number(c.value);
        } else if (c.value !== '') out[name] = c.value;
      }
      return out;
    },
  };
}
