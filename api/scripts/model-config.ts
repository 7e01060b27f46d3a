import type { Env } from '../../lib/config.ts';

/** Where the script model lives. `apiKey` may be null for local endpoints that need none. */
export interface ScriptModelConfig {
  apiKey: string | null;
  baseUrl: string | null;
  model: string;
}

/** Model used against OpenAI itself when SCRIPT_MODEL is unset. */
const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini';

export const NOT_CONFIGURED_MESSAGE =
  'Script generation is not configured. Set OPENAI_API_KEY (OpenAI, model SCRIPT_MODEL or gpt-4o-mini), ' +
  'or OPENAI_BASE_URL and SCRIPT_MODEL (any OpenAI-compatible endpoint, OPENAI_API_KEY if it needs one), ' +
  'and restart the service.';

/**
 * The model settings from the environment, or null when script generation is not configured:
 * neither a key nor an endpoint, or a custom endpoint without SCRIPT_MODEL (we cannot guess the
 * model names of an arbitrary server).
 */
export function scriptModelFromEnv(
  env: Pick<Env, 'OPENAI_API_KEY' | 'OPENAI_BASE_URL' | 'SCRIPT_MODEL'>,
): ScriptModelConfig | null {
  const apiKey = env.OPENAI_API_KEY ?? null;
  const baseUrl = env.OPENAI_BASE_URL ?? null;
  if (apiKey === null && baseUrl === null) return null;
  const model = env.SCRIPT_MODEL ?? (baseUrl === null ? DEFAULT_OPENAI_MODEL : null);
  if (model === null) return null;
  return { apiKey, baseUrl, model };
}
