import type { Draft, Violation } from './draft.ts';

export type ParsedDraft = { ok: true; draft: Draft } | { ok: false; violations: Violation[] };

function format(path: string, message: string): Violation {
  return { constraint: 'format', path, message };
}

/**
 * Servers without structured output wrap JSON in prose or Markdown fences; take the outermost
 * object so a good script is not thrown away for its packaging.
 */
function extractJson(content: string): string {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(content);
  const body = fenced?.[1] ?? content;
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  return start >= 0 && end > start ? body.slice(start, end + 1) : body;
}

function optionalText(value: unknown, path: string, out: Violation[]): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') {
    out.push(format(path, `${path} must be a string or null`));
    return null;
  }
  return value.trim() === '' ? null : value.trim();
}

/** Parses and shape-checks a model answer. Content rules are the checker's job, not this one's. */
export function parseDraft(content: string | null | undefined): ParsedDraft {
  if (!content || content.trim() === '') {
    return { ok: false, violations: [format('', 'the answer was empty; answer with the JSON object')] };
  }
  let data: unknown;
  try {
    data = JSON.parse(extractJson(content));
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return {
      ok: false,
      violations: [format('', `the answer was not valid JSON (${why}); answer with one JSON object only`)],
    };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, violations: [format('', 'the answer must be a JSON object with "scenes"')] };
  }
  const obj = data as Record<string, unknown>;
  const out: Violation[] = [];
  const title = optionalText(obj.title, 'title', out);
  const description = optionalText(obj.description, 'description', out);
  if (!Array.isArray(obj.scenes)) {
    out.push(format('scenes', 'scenes must be an array of {"voiceText", "imagePrompt"} objects'));
    return { ok: false, violations: out };
  }
  const scenes: Draft['scenes'] = [];
  obj.scenes.forEach((raw: unknown, i: number) => {
    const base = `scenes[${i}]`;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      out.push(format(base, `${base} must be an object with voiceText and imagePrompt`));
      return;
    }
    const s = raw as Record<string, unknown>;
    if (typeof s.voiceText !== 'string' || s.voiceText.trim() === '') {
      out.push(format(`${base}.voiceText`, `${base}.voiceText must be a non-empty string`));
      return;
    }
    scenes.push({
      voiceText: s.voiceText.trim(),
      imagePrompt: optionalText(s.imagePrompt, `${base}.imagePrompt`, out),
    });
  });
  if (out.length > 0) return { ok: false, violations: out };
  return { ok: true, draft: { title, description, scenes } };
}
