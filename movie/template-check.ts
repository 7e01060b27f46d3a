import type { Finding } from '../lib/errors.ts';
import { uncoveredCharacters } from './font-catalog.ts';
import { DEFAULT_FONT, FONT_FAMILIES } from './fonts.ts';
import { formatPath, type Segment } from './paths.ts';
import type { Result } from './result.ts';
import { MAX_FINDINGS, validateTemplate } from './validate.ts';
import type { VariableDecl } from './variables.ts';

/**
 * Template writes' check (POST/PUT /templates, POST /templates/check): validateTemplate, plus
 * the warnings only Node can give, since they read the bundled fonts' files (which is why this
 * is not in validate.ts, whose graph the browser dashboard type-checks).
 */
export function checkTemplateDocument(doc: unknown): Result<{ manifest: Record<string, VariableDecl> }> {
  const r = validateTemplate(doc);
  return r.ok ? { ...r, warnings: [...r.warnings, ...glyphWarnings(doc)] } : r;
}

/**
 * TEXT_GLYPH_MISSING warnings: characters of a text, or of a voice whose words a subtitles
 * element of its scene shows, that neither the element's bundled font nor a fallback draws.
 * Fonts by URL (and placeholders) are the render's to check: only it has their files.
 */
function glyphWarnings(doc: unknown): Finding[] {
  const out: Finding[] = [];
  const scenes = (doc as { scenes?: unknown } | null)?.scenes;
  if (!Array.isArray(scenes)) return out;
  const bundled = (font: unknown) =>
    font === undefined
      ? DEFAULT_FONT
      : (FONT_FAMILIES as readonly unknown[]).includes(font)
        ? (font as string)
        : undefined;
  const check = (text: unknown, family: string | undefined, path: Segment[], shownBy?: string) => {
    if (typeof text !== 'string' || family === undefined || out.length >= MAX_FINDINGS) return;
    const missing = uncoveredCharacters(text, family);
    if (missing.length === 0) return;
    const list = missing
      .slice(0, 8)
      .map((c) => `"${c}" (U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`)
      .join(', ');
    out.push({
      code: 'TEXT_GLYPH_MISSING',
      message: `${list}${missing.length > 8 ? ` and ${missing.length - 8} more` : ''}: no font draws ${missing.length === 1 ? 'this character' : 'these characters'} in ${family} or its fallbacks${shownBy ? ` (shown by the subtitles at ${shownBy})` : ''}; ${missing.length === 1 ? 'it renders' : 'they render'} as U+FFFD`,
      path: formatPath(path),
    });
  };
  scenes.forEach((scene, s) => {
    const elements = (scene as { elements?: unknown } | null)?.elements;
    if (!Array.isArray(elements)) return;
    const els = elements as Record<string, unknown>[];
    els.forEach((el, e) => {
      if (el?.type === 'text') check(el.text, bundled(el.font), ['scenes', s, 'elements', e, 'text']);
      if (el?.type !== 'subtitles') return;
      els.forEach((v, j) => {
        if (v?.type === 'voice')
          check(
            v.text,
            bundled(el.font),
            ['scenes', s, 'elements', j, 'text'],
            formatPath(['scenes', s, 'elements', e]),
          );
      });
    });
  });
  return out;
}
