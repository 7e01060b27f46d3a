import OpenAI from 'openai';
import { AppError } from '../../lib/errors.ts';
import { backoffDelay, retryAfterMs } from './backoff.ts';
import type { ScriptModelConfig } from './model-config.ts';
import type { ChatMessage } from './prompt.ts';

/** Time source and delay, injected so tests drive backoff without sleeping. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** The two log levels generation uses; pino loggers and Fastify's request logger both fit. */
export interface LogSink {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** One answer of the model: its text, why it stopped, and a refusal when it declined. */
export interface ChatAnswer {
  content: string;
  finishReason: string | null;
  refusal: string | null;
}

/** What one generation has spent on the provider so far; meta reports it. */
export interface CallState {
  /** False once the endpoint has rejected a json_schema response format. */
  structured: boolean;
  requests: number;
  usage: { promptTokens: number; completionTokens: number; totalTokens: number };
}

export interface ModelCallOptions {
  client: OpenAI;
  config: ScriptModelConfig;
  /** The answer's JSON schema, sent as a structured-output response format while `structured`. */
  schema: Record<string, unknown>;
  /** Absolute time (clock ms) after which no further request is started. */
  deadline: number;
  budgetMs: number;
  requestTimeoutMs: number;
  clock: Clock;
  random: () => number;
  logger?: LogSink | undefined;
}

export function createModelClient(config: ScriptModelConfig): OpenAI {
  return new OpenAI({
    // Local OpenAI-compatible servers often need no key, but the client insists on one.
    apiKey: config.apiKey ?? 'no-key',
    ...(config.baseUrl === null ? {} : { baseURL: config.baseUrl }),
    maxRetries: 0, // retries are ours: they must respect the generation budget
  });
}

/** "90 s", or "300 ms" for the short budgets of tests. */
function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 1000)} s`;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function isRetryable(e: unknown): boolean {
  if (e instanceof OpenAI.APIConnectionError) return true; // includes timeouts
  if (e instanceof OpenAI.APIError && typeof e.status === 'number') {
    return e.status === 408 || e.status === 409 || e.status === 429 || e.status >= 500;
  }
  return false;
}

/** A short, human description of a provider failure for logs and the LLM_FAILED message. */
function describeProviderError(e: unknown, timeoutMs: number): string {
  if (e instanceof OpenAI.APIConnectionTimeoutError) return `no answer within ${formatMs(timeoutMs)}`;
  if (e instanceof OpenAI.APIConnectionError) {
    const cause = e.cause instanceof Error ? `: ${e.cause.message}` : '';
    return `connection failed${cause}`;
  }
  if (e instanceof OpenAI.APIError && typeof e.status === 'number') {
    const detail = (e.message ?? '').replace(/^\d{3}\s*/, '').slice(0, 200);
    return `HTTP ${e.status}${detail ? ` (${detail})` : ''}`;
  }
  return e instanceof Error ? e.message : String(e);
}

/** Endpoints without structured output answer a json_schema response format with 400 or 422. */
function rejectsResponseFormat(e: unknown): boolean {
  return e instanceof OpenAI.APIError && (e.status === 400 || e.status === 422);
}

/**
 * One chat completion, retried on timeouts, 429 and 5xx with capped exponential backoff until
 * `deadline`. Falls back once from structured output to plain JSON when the endpoint rejects the
 * response format. Returns the message content; throws LLM_FAILED saying what happened.
 */
export async function completeChat(
  messages: ChatMessage[],
  state: CallState,
  o: ModelCallOptions,
): Promise<ChatAnswer> {
  let retry = 0;
  let last = '';
  for (;;) {
    const remaining = o.deadline - o.clock.now();
    if (remaining <= 0) {
      throw new AppError(
        'LLM_FAILED',
        `The script model did not produce a script within the ${formatMs(o.budgetMs)} budget ` +
          `(${plural(state.requests, 'request')}${last ? `, last: ${last}` : ''}). Nothing was charged; retry later.`,
      );
    }
    const timeout = Math.min(remaining, o.requestTimeoutMs);
    try {
      state.requests++;
      const res = await o.client.chat.completions.create(
        {
          model: o.config.model,
          messages,
          ...(state.structured
            ? {
                response_format: {
                  type: 'json_schema',
                  json_schema: { name: 'video_script', strict: true, schema: o.schema },
                },
              }
            : {}),
        },
        { timeout, maxRetries: 0 },
      );
      state.usage.promptTokens += res.usage?.prompt_tokens ?? 0;
      state.usage.completionTokens += res.usage?.completion_tokens ?? 0;
      state.usage.totalTokens += res.usage?.total_tokens ?? 0;
      const choice = res.choices[0];
      return {
        content: choice?.message?.content ?? '',
        finishReason: choice?.finish_reason ?? null,
        refusal: choice?.message?.refusal ?? null,
      };
    } catch (e) {
      last = describeProviderError(e, timeout);
      if (state.structured && rejectsResponseFormat(e)) {
        o.logger?.info({ err: last }, 'script model rejected json_schema output; falling back to plain JSON');
        state.structured = false;
        continue;
      }
      if (!isRetryable(e)) {
        throw new AppError(
          'LLM_FAILED',
          `The script model endpoint refused the request: ${last}. ` +
            'Check OPENAI_API_KEY, OPENAI_BASE_URL and SCRIPT_MODEL. Nothing was charged.',
          { cause: e },
        );
      }
      const headers = e instanceof OpenAI.APIError ? e.headers : undefined;
      const delay = backoffDelay(retry++, o.random, retryAfterMs(headers, o.clock.now()));
      o.logger?.warn({ err: last, retry, delayMs: delay }, 'script model request failed; retrying');
      if (o.clock.now() + delay >= o.deadline) {
        throw new AppError(
          'LLM_FAILED',
          `The script model kept failing and the ${formatMs(o.budgetMs)} budget ran out ` +
            `(${plural(state.requests, 'request')}, last: ${last}). Nothing was charged; retry later.`,
          { cause: e },
        );
      }
      await o.clock.sleep(delay);
    }
  }
}
