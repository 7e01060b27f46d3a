import { AppError } from '../../lib/errors.ts';
import { checkContext, checkDraft, finaliseDraft } from './constraints.ts';
import type { Violation } from './draft.ts';
import {
  type CallState,
  type ChatAnswer,
  type Clock,
  completeChat,
  createModelClient,
  type LogSink,
  realClock,
} from './model-client.ts';
import { NOT_CONFIGURED_MESSAGE, type ScriptModelConfig } from './model-config.ts';
import { parseDraft } from './parse-draft.ts';
import { buildMessages, buildRepairMessage, type ChatMessage, draftJsonSchema } from './prompt.ts';
import type { ScriptMeta, ScriptRequest, ScriptScene } from './schemas.ts';
import { DEFAULT_BUDGET_MS, DEFAULT_REQUEST_TIMEOUT_MS } from './scripts-config.ts';

/** Drafts per generation, the first included (issue 6). */
export const MAX_DRAFTS = 3;

export interface GenerateOptions {
  /** Null when script generation is not configured. */
  model: ScriptModelConfig | null;
  budgetMs?: number;
  requestTimeoutMs?: number;
  clock?: Clock;
  random?: () => number;
  logger?: LogSink | undefined;
}

export interface GeneratedScript {
  title: string | null;
  description: string | null;
  scenes: ScriptScene[];
  meta: Omit<ScriptMeta, 'creditsCharged'>;
}

/** A draft that did not parse often has a reason the model or the endpoint told us: say it. */
function explain(violations: Violation[], answer: ChatAnswer): Violation[] {
  if (answer.refusal) {
    return [{ constraint: 'format', path: '', message: `the model refused: ${answer.refusal.slice(0, 300)}` }];
  }
  if (answer.finishReason === 'length') {
    return [
      {
        constraint: 'format',
        path: '',
        message: 'the answer was cut off at the output token limit; write shorter narration so the JSON is complete',
      },
    ];
  }
  return violations;
}

function summarise(violations: Violation[]): string {
  const head = violations.slice(0, 5).map((v) => (v.path ? `${v.path}: ${v.message}` : v.message));
  const more = violations.length > 5 ? `; and ${violations.length - 5} more` : '';
  return head.join('; ') + more;
}

/**
 * Generates a script that satisfies every constraint of the request, or throws LLM_FAILED.
 * Each draft is parsed and checked; a failing draft is answered with its violations and the
 * model rewrites it, up to MAX_DRAFTS drafts. Provider failures are retried inside the budget.
 */
export async function generateScript(req: ScriptRequest, options: GenerateOptions): Promise<GeneratedScript> {
  const config = options.model;
  if (config === null) throw new AppError('LLM_FAILED', NOT_CONFIGURED_MESSAGE);
  const clock = options.clock ?? realClock;
  const budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
  const started = clock.now();
  const ctx = checkContext(req);
  const schema = draftJsonSchema(ctx.constraints);
  const state: CallState = {
    structured: true,
    requests: 0,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  };
  const callOptions = {
    client: createModelClient(config),
    config,
    schema,
    deadline: started + budgetMs,
    budgetMs,
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    clock,
    random: options.random ?? Math.random,
    logger: options.logger,
  };

  const messages: ChatMessage[] = buildMessages(req, ctx.constraints);
  let violations: Violation[] = [];
  for (let attempt = 1; attempt <= MAX_DRAFTS; attempt++) {
    const answer = await completeChat(messages, state, callOptions);
    const content = answer.content;
    const parsed = parseDraft(content);
    violations = parsed.ok ? checkDraft(parsed.draft, ctx) : explain(parsed.violations, answer);
    if (parsed.ok && violations.length === 0) {
      return {
        ...finaliseDraft(parsed.draft, ctx.constraints),
        meta: {
          model: config.model,
          attempts: attempt,
          providerRequests: state.requests,
          usage: { ...state.usage },
          generationMs: Math.max(0, Math.round(clock.now() - started)),
          language: req.language,
          structuredOutput: state.structured,
          constraints: ctx.constraints,
        },
      };
    }
    options.logger?.info({ attempt, violations: violations.slice(0, 10) }, 'script draft rejected');
    messages.push({ role: 'assistant', content }, { role: 'user', content: buildRepairMessage(violations) });
  }
  throw new AppError(
    'LLM_FAILED',
    `The script model could not satisfy the constraints in ${MAX_DRAFTS} drafts. Last draft: ${summarise(violations)}. ` +
      'Nothing was charged; loosen the constraints or retry.',
  );
}
