import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AppError } from '../../lib/errors.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../test/fakes/openai-server.ts';
import { makeDraft } from '../../test/fakes/script-drafts.ts';
import { type GenerateOptions, generateScript, MAX_DRAFTS } from './generate-script.ts';
import type { Clock } from './model-client.ts';
import { scriptModelFromEnv } from './model-config.ts';
import type { ScriptRequest } from './schemas.ts';
import { validateScriptRequest } from './validate-script-request.ts';

function request(body: Record<string, unknown> = {}): ScriptRequest {
  const r = validateScriptRequest({ brief: 'A short film about a lighthouse keeper', ...body });
  if (!r.ok) throw new Error(JSON.stringify(r.findings));
  return r.value;
}

/** A clock whose sleeps return at once and move time forward, recording every delay. */
function fakeClock(start = 1_000_000): Clock & { slept: number[] } {
  let now = start;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
}

async function rejection(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof AppError, `expected an AppError, got ${e}`);
    return e;
  }
  assert.fail('expected the generation to fail');
}

describe('generateScript against a local OpenAI-protocol server', () => {
  let fake: FakeOpenAI;
  let options: (extra?: Partial<GenerateOptions>) => GenerateOptions;
  before(async () => {
    fake = await startFakeOpenAI();
    options = (extra = {}) => ({
      model: { apiKey: 'sk-test', baseUrl: fake.url, model: 'fake-model' },
      clock: fakeClock(),
      random: () => 1,
      ...extra,
    });
  });
  after(() => fake.close());

  /** Resets the fake between tests: new script, empty request log. */
  function script(...steps: Parameters<FakeOpenAI['push']>) {
    fake.reset(...steps);
  }

  test('a good first draft: one structured-output request, meta filled in', async () => {
    script({ reply: makeDraft({ scenes: 12 }), usage: { prompt_tokens: 700, completion_tokens: 900 } });
    const s = await generateScript(request({ visualStyle: 'oil painting' }), options());
    assert.equal(s.scenes.length, 12);
    assert.deepEqual(
      s.scenes.map((x) => x.index),
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    assert.equal(s.title, 'The Keeper of the Light');
    assert.ok(s.scenes.every((x) => x.imagePrompt?.endsWith('Style: oil painting')));
    assert.equal(s.meta.model, 'fake-model');
    assert.equal(s.meta.attempts, 1);
    assert.equal(s.meta.providerRequests, 1);
    assert.deepEqual(s.meta.usage, { promptTokens: 700, completionTokens: 900, totalTokens: 1600 });
    assert.equal(s.meta.structuredOutput, true);
    assert.equal(s.meta.language, 'English');
    assert.deepEqual(s.meta.constraints.sceneCount, { min: 10, max: 14 });

    const [req] = fake.requests;
    assert.equal(req?.headers.authorization, 'Bearer sk-test');
    assert.equal(req?.body.model, 'fake-model');
    assert.equal(req?.body.response_format.type, 'json_schema');
    assert.equal(req?.body.response_format.json_schema.strict, true);
    assert.equal(req?.body.messages[0].role, 'system');
    assert.match(req?.body.messages[1].content, /lighthouse keeper/);
  });

  test('a wrong scene count is re-prompted with the violation and repaired on attempt 2', async () => {
    script({ reply: makeDraft({ scenes: 7 }) }, { reply: makeDraft({ scenes: 8 }) });
    const s = await generateScript(request({ sceneCount: 8 }), options());
    assert.equal(s.scenes.length, 8);
    assert.equal(s.meta.attempts, 2);
    assert.deepEqual(s.meta.usage, { promptTokens: 200, completionTokens: 100, totalTokens: 300 });
    const second = fake.requests[1]?.body.messages as { role: string; content: string }[];
    assert.equal(second.length, 4, 'system, brief, the failed draft, the repair');
    assert.equal(second[2]?.role, 'assistant');
    assert.equal(JSON.parse(second[2]?.content ?? '').scenes.length, 7);
    assert.equal(second[3]?.role, 'user');
    assert.match(second[3]?.content ?? '', /scenes: the script has 7 scenes; it must have exactly 8/);
  });

  test('drafts that never comply end in LLM_FAILED after exactly 3 drafts', async () => {
    const tooLong = makeDraft({ scenes: 3, words: 60 });
    script({ reply: tooLong }, { reply: tooLong }, { reply: 'not json at all' });
    const e = await rejection(generateScript(request({ sceneCount: 3, wordsPerScene: { max: 40 } }), options()));
    assert.equal(e.code, 'LLM_FAILED');
    assert.equal(e.status, 502);
    assert.match(e.message, /could not satisfy the constraints in 3 drafts/);
    assert.match(e.message, /not valid JSON/);
    assert.equal(fake.requests.length, MAX_DRAFTS);
    assert.match(fake.requests[1]?.body.messages[3].content, /scene 1 narration has 60 words; it must have at most 40/);
  });

  test('a cut-off answer and a refusal are re-prompted with their reason', async () => {
    const full = JSON.stringify(makeDraft({ scenes: 3 }));
    script(
      { reply: full.slice(0, 200), finishReason: 'length' },
      { reply: '', refusal: 'I cannot write about that.' },
      { reply: makeDraft({ scenes: 3 }) },
    );
    const s = await generateScript(request({ sceneCount: 3 }), options());
    assert.equal(s.meta.attempts, 3);
    assert.match(fake.requests[1]?.body.messages.at(-1).content, /cut off at the output token limit/);
    assert.match(fake.requests[2]?.body.messages.at(-1).content, /the model refused: I cannot write about that\./);
  });

  test('a verbatim copy of the source is re-prompted', async () => {
    const source =
      'The first lighthouse keepers lived in tiny stone rooms at the top of the tower and climbed hundreds of steps every night.';
    const copied = makeDraft({
      scenes: 2,
      voiceText: (i) =>
        i === 0
          ? 'Long ago the first lighthouse keepers lived in tiny stone rooms at the top of the tower, alone.'
          : 'The keeper climbs the narrow stairs to light the lamp for the ships that pass in the dark of the night.',
    });
    script({ reply: copied }, { reply: makeDraft({ scenes: 2 }) });
    const s = await generateScript(request({ sceneCount: 2, sourceMaterial: source }), options());
    assert.equal(s.meta.attempts, 2);
    assert.match(fake.requests[1]?.body.messages[3].content, /scenes\[0\]\.voiceText copies 15 consecutive words/);
  });

  test('provider 500s and a 429 are retried with capped exponential backoff, then succeed', async () => {
    const clock = fakeClock();
    script(
      { status: 500 },
      { status: 502 },
      { status: 503 },
      { status: 429, headers: { 'retry-after': '3' } },
      { reply: makeDraft() },
    );
    const s = await generateScript(request(), options({ clock }));
    assert.equal(s.meta.attempts, 1);
    assert.equal(s.meta.providerRequests, 5);
    assert.deepEqual(clock.slept, [500, 1000, 2000, 3000]);
  });

  test('provider errors past the budget end in LLM_FAILED naming the last error', async () => {
    const clock = fakeClock();
    script(...Array.from({ length: 30 }, () => ({ status: 503, message: 'overloaded' })));
    const e = await rejection(generateScript(request(), options({ clock, budgetMs: 10_000 })));
    assert.equal(e.code, 'LLM_FAILED');
    assert.match(e.message, /budget ran out \(5 requests, last: HTTP 503 \(overloaded\)\)/);
    assert.deepEqual(clock.slept, [500, 1000, 2000, 4000]); // a 5th wait of 8 s would end past 10 s
  });

  test('a slow provider hits the budget and fails within it', async () => {
    script({ reply: makeDraft(), delayMs: 30_000 });
    const t0 = Date.now();
    // Real clock: the request timeout is real time. A 300 ms budget keeps the test fast.
    const e = await rejection(generateScript(request(), options({ clock: undefined, budgetMs: 300 })));
    const took = Date.now() - t0;
    assert.equal(e.code, 'LLM_FAILED');
    assert.match(e.message, /the 300 ms budget ran out \(1 request, last: no answer within \d+ ms\)/);
    assert.ok(took >= 250 && took < 3000, `took ${took} ms`);
  });

  test('an endpoint without structured output gets plain JSON requests, fenced answers accepted', async () => {
    const plain = await startFakeOpenAI(
      [{ reply: `Here is the script:\n\`\`\`json\n${JSON.stringify(makeDraft({ scenes: 4 }))}\n\`\`\`` }],
      { rejectJsonSchema: true },
    );
    try {
      const s = await generateScript(
        request({ sceneCount: 4 }),
        options({ model: { apiKey: null, baseUrl: plain.url, model: 'local' } }),
      );
      assert.equal(s.scenes.length, 4);
      assert.equal(s.meta.structuredOutput, false);
      assert.equal(s.meta.providerRequests, 2);
      assert.equal(plain.requests[0]?.body.response_format?.type, 'json_schema');
      assert.equal(plain.requests[1]?.body.response_format, undefined);
    } finally {
      await plain.close();
    }
  });

  test('an authentication failure is not retried', async () => {
    script({ status: 401, message: 'Incorrect API key provided' });
    const e = await rejection(generateScript(request(), options()));
    assert.equal(e.code, 'LLM_FAILED');
    assert.match(e.message, /refused the request: HTTP 401 \(Incorrect API key provided\).*OPENAI_API_KEY/);
    assert.equal(fake.requests.length, 1);
  });

  test('options shape the resource: no image prompts, no title, no description', async () => {
    script({ reply: makeDraft({ scenes: 2, title: null, description: null, imagePrompt: null }) });
    const s = await generateScript(
      request({ sceneCount: 2, includeImagePrompts: false, includeTitle: false, includeDescription: false }),
      options(),
    );
    assert.equal(s.title, null);
    assert.equal(s.description, null);
    assert.deepEqual(
      s.scenes.map((x) => x.imagePrompt),
      [null, null],
    );
  });
});

describe('no model configured', () => {
  const envs: [string, Record<string, string>][] = [
    ['nothing set', {}],
    ['an endpoint without SCRIPT_MODEL', { OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' }],
    ['only SCRIPT_MODEL', { SCRIPT_MODEL: 'm' }],
  ];
  for (const [name, env] of envs) {
    test(`${name}: LLM_FAILED naming the settings`, async () => {
      const model = scriptModelFromEnv(env);
      assert.equal(model, null);
      const e = await rejection(generateScript(request(), { model }));
      assert.equal(e.code, 'LLM_FAILED');
      for (const v of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'SCRIPT_MODEL']) assert.match(e.message, new RegExp(v));
    });
  }

  test('a key alone selects the default model; an endpoint needs SCRIPT_MODEL', () => {
    assert.deepEqual(scriptModelFromEnv({ OPENAI_API_KEY: 'sk' }), {
      apiKey: 'sk',
      baseUrl: null,
      model: 'gpt-4o-mini',
    });
    assert.deepEqual(scriptModelFromEnv({ OPENAI_BASE_URL: 'http://h/v1', SCRIPT_MODEL: 'llama' }), {
      apiKey: null,
      baseUrl: 'http://h/v1',
      model: 'llama',
    });
  });
});
