import { type Env, EnvSchema, readEnv } from '../../lib/config.ts';
import { DEFAULT_BUDGET_MS, DEFAULT_REQUEST_TIMEOUT_MS } from './generate-script.ts';
import type { Clock } from './model-client.ts';
import { type ScriptModelConfig, scriptModelFromEnv } from './model-config.ts';

/** What the script routes need: the model, the budget and (in tests) the clock. */
export interface ScriptsConfig {
  /** Null when script generation is not configured: POST /v1/scripts answers LLM_FAILED. */
  model: ScriptModelConfig | null;
  budgetMs: number;
  requestTimeoutMs: number;
  clock?: Clock;
  random?: () => number;
}

declare module '../config.ts' {
  interface ApiConfig {
    /** Script generation settings; `scriptsConfig(values)` builds them from the environment. */
    scripts?: ScriptsConfig;
  }
}

export function scriptsConfig(values: Env): ScriptsConfig {
  const budgetMs = values.SCRIPT_BUDGET_SEC === undefined ? DEFAULT_BUDGET_MS : Number(values.SCRIPT_BUDGET_SEC) * 1000;
  return {
    model: scriptModelFromEnv(values),
    budgetMs,
    requestTimeoutMs: Math.min(DEFAULT_REQUEST_TIMEOUT_MS, budgetMs),
  };
}

/**
 * The app's script settings: `config.scripts` when the caller passed them (serve, tests), else
 * read once from the validated environment when the route module is registered.
 */
export function resolveScriptsConfig(fromApp: ScriptsConfig | undefined, env: NodeJS.ProcessEnv): ScriptsConfig {
  return fromApp ?? scriptsConfig(readEnv(EnvSchema, env).values);
}
