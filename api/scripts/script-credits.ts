import { SCRIPT_DEFAULTS, type ScriptRequest } from './schemas.ts';

/** Spec 8: script generation costs max(2, ceil(scenes / 4)) credits, charged only on success. */
export function scriptCredits(scenes: number): number {
  return Math.max(2, Math.ceil(scenes / 4));
}

/**
 * The most a request can cost, checked against the balance before the model is called so a
 * caller is never told "insufficient" after waiting for a script: sceneCount when set, else the
 * top of the 10-14 range the model chooses from.
 */
export function maxScriptCredits(req: Pick<ScriptRequest, 'sceneCount'>): number {
  return scriptCredits(req.sceneCount ?? SCRIPT_DEFAULTS.sceneCountRange.max);
}
