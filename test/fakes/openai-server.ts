import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer of the fake: a completion, an HTTP error, or either after a delay. */
export type FakeStep =
  | {
      /** Message content; objects are JSON-encoded (a draft), strings sent as they are. */
      reply: unknown;
      usage?: { prompt_tokens: number; completion_tokens: number };
      /** finish_reason of the choice (default "stop"); "length" means the answer was cut off. */
      finishReason?: 'stop' | 'length' | 'content_filter';
      /** A structured-output refusal: content becomes null and `refusal` carries this text. */
      refusal?: string;
      delayMs?: number;
    }
  | { status: number; message?: string; headers?: Record<string, string>; delayMs?: number };

/** A step chosen per request, for tests that answer from what was asked. */
export type FakeHandler = (request: RecordedRequest) => FakeStep | Promise<FakeStep>;

interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: the recorded body is whatever JSON the client sent
  body: any;
}

export interface FakeOpenAIOptions {
  /** Answer any request carrying `response_format: json_schema` with 400, like servers without structured output. */
  rejectJsonSchema?: boolean;
}

export interface FakeOpenAI {
  /** Base URL for the `openai` client, ending in /v1. */
  url: string;
  /** Every request received, in order, including rejected ones. */
  requests: RecordedRequest[];
  /** Appends answers to the script. */
  push(...steps: (FakeStep | FakeHandler)[]): void;
  /** Steps not yet consumed. */
  remaining(): number;
  /** Forgets unconsumed steps and recorded requests, then scripts `steps`: one server, many tests. */
  reset(...steps: (FakeStep | FakeHandler)[]): void;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * A real HTTP server on 127.0.0.1 speaking the OpenAI chat-completions protocol (POST
 * /v1/chat/completions), answering each request with the next scripted step. The paid vendor's
 * test double: the client under test does real HTTP, real JSON and real timeouts against it.
 * When the script runs out it answers 500 "fake: no scripted response left", so a test that
 * calls more often than it planned fails loudly.
 */
export async function startFakeOpenAI(
  steps: (FakeStep | FakeHandler)[] = [],
  options: FakeOpenAIOptions = {},
): Promise<FakeOpenAI> {
  const queue = [...steps];
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let completions = 0;

  const server = createServer(async (req, res) => {
    const raw = await readBody(req);
    let body: unknown = null;
    try {
      body = raw === '' ? null : JSON.parse(raw);
    } catch {
      body = raw;
    }
    const recorded: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
    requests.push(recorded);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      send(res, 404, { error: { message: `fake: no route ${req.method} ${req.url}`, type: 'invalid_request_error' } });
      return;
    }
    const format = (body as { response_format?: { type?: string } } | null)?.response_format?.type;
    if (options.rejectJsonSchema && format === 'json_schema') {
      send(res, 400, {
        error: {
          message: "response_format 'json_schema' is not supported",
          type: 'invalid_request_error',
          param: 'response_format',
        },
      });
      return;
    }
    const next = queue.shift();
    const step: FakeStep =
      next === undefined
        ? { status: 500, message: 'fake: no scripted response left' }
        : typeof next === 'function'
          ? await next(recorded)
          : next;
    const answer = () => {
      if (res.destroyed) return; // the client gave up (timeout): nothing to answer
      if ('status' in step) {
        send(
          res,
          step.status,
          { error: { message: step.message ?? `fake status ${step.status}`, type: 'server_error' } },
          step.headers,
        );
        return;
      }
      const content = typeof step.reply === 'string' ? step.reply : JSON.stringify(step.reply);
      const usage = step.usage ?? { prompt_tokens: 100, completion_tokens: 50 };
      completions++;
      send(res, 200, {
        id: `chatcmpl-fake-${completions}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: (body as { model?: string } | null)?.model ?? 'fake',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: step.refusal ? null : content, refusal: step.refusal ?? null },
            finish_reason: step.finishReason ?? 'stop',
            logprobs: null,
          },
        ],
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
      });
    };
    if (step.delayMs) {
      const t = setTimeout(() => {
        timers.delete(t);
        answer();
      }, step.delayMs);
      timers.add(t);
    } else {
      answer();
    }
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    push: (...more) => {
      queue.push(...more);
    },
    remaining: () => queue.length,
    reset: (...next) => {
      queue.length = 0;
      requests.length = 0;
      queue.push(...next);
    },
    close: async () => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
