import type { Env } from '../../lib/config.ts';
import type { Clock } from './model-client.ts';
import { type ScriptModelConfig, scriptModelFromEnv } from './model-config.ts';

/** Whole-generation budget: drafts, retries and backoff together (issue 6). */
export const DEFAULT_BUDGET_MS = 90_000;
/** One request may not take the whole budget: a hung connection should leave time for a retry. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** What the script routes need: the model, the budget and (in tests) the clock. */
export interface ScriptsConfig {
  /** Null when script generation is not configured: POST /v1/scripts answers LLM_FAILED. */
  model: ScriptModelConfig | null;
  budgetMs: number;
  requestTimeoutMs: number;
  clock?: Clock;
  random?: () => number;
}

export function scriptsConfig(values: Env): ScriptsConfig {
  const budgetMs = values.SCRIPT_BUDGET_SEC === undefined ? DEFAULT_BUDGET_MS : Number(values.SCRIPT_BUDGET_SEC) * 1000;
  return {
    model: scriptModelFromEnv(values),
    budgetMs,
    requestTimeoutMs: Math.min(DEFAULT_REQUEST_TIMEOUT_MS, budgetMs),
  };
}
