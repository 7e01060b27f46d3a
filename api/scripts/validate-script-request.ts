import { Value } from '@sinclair/typebox/value';
import type { Finding } from '../../lib/errors.ts';
import { formatPath, pointerSegments } from '../../movie/paths.ts';
import { SCRIPT_DEFAULTS, type ScriptRequest, type ScriptRequestBody, ScriptRequestSchema } from './schemas.ts';

export type RequestCheck = { ok: true; value: ScriptRequest } | { ok: false; findings: Finding[] };

/**
 * Checks a POST /v1/scripts body and applies the defaults. Returns every finding at once, one
 * per field (the first TypeBox error for a path is the most specific), all VALIDATION_ERROR.
 */
export function validateScriptRequest(body: unknown): RequestCheck {
  const findings: Finding[] = [];
  const seen = new Set<string>();
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return {
      ok: false,
      findings: [{ code: 'VALIDATION_ERROR', message: 'The body must be a JSON object.', path: '' }],
    };
  }
  for (const error of Value.Errors(ScriptRequestSchema, body)) {
    const path = formatPath(pointerSegments(error.path, body));
    if (seen.has(path)) continue;
    seen.add(path);
    const message =
      error.message === 'Unexpected property'
        ? `Unknown field "${path}"; see the POST /v1/scripts fields in the API reference.`
        : `${path || 'body'}: ${error.message}.`;
    findings.push({ code: 'VALIDATION_ERROR', message, path });
  }
  if (findings.length > 0) return { ok: false, findings };

  const b = body as ScriptRequestBody;
  // Whitespace passes minLength but gives the model nothing to work from.
  if (b.brief.trim() === '') {
    findings.push({ code: 'VALIDATION_ERROR', message: 'brief must contain text, not only spaces.', path: 'brief' });
  }
  const wps = b.wordsPerScene;
  if (wps?.min !== undefined && wps.max !== undefined && wps.min > wps.max) {
    findings.push({
      code: 'VALIDATION_ERROR',
      message: `wordsPerScene.min (${wps.min}) must not exceed wordsPerScene.max (${wps.max}).`,
      path: 'wordsPerScene.min',
    });
  }
  if (findings.length > 0) return { ok: false, findings };

  return {
    ok: true,
    value: {
      brief: b.brief,
      sourceMaterial: b.sourceMaterial ?? null,
      sceneCount: b.sceneCount ?? null,
      targetDurationSec: b.targetDurationSec ?? null,
      language: b.language?.trim() || SCRIPT_DEFAULTS.language,
      tone: b.tone ?? null,
      audience: b.audience ?? null,
      structure: b.structure ?? null,
      visualStyle: b.visualStyle?.trim() || null,
      wordsPerScene: wps ? { min: wps.min ?? null, max: wps.max ?? null } : null,
      includeImagePrompts: b.includeImagePrompts ?? SCRIPT_DEFAULTS.includeImagePrompts,
      includeTitle: b.includeTitle ?? SCRIPT_DEFAULTS.includeTitle,
      includeDescription: b.includeDescription ?? SCRIPT_DEFAULTS.includeDescription,
    },
  };
}
