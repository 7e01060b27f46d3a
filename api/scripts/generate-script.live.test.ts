import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EnvSchema, readEnv } from '../../lib/config.ts';
import { checkContext, checkDraft } from './constraints.ts';
import { generateScript } from './generate-script.ts';
import { scriptModelFromEnv } from './model-config.ts';
import { validateScriptRequest } from './validate-script-request.ts';

// The real vendor costs money, so this runs only where a key is configured.
const skip = process.env.OPENAI_API_KEY
  ? false
  : 'OPENAI_API_KEY is not set: the live script generation test is skipped';

test('live: a real model writes a script that satisfies every constraint', { skip, timeout: 120_000 }, async (t) => {
  const model = scriptModelFromEnv(readEnv(EnvSchema).values);
  assert.ok(model, 'OPENAI_API_KEY is set, so a model must be configured');
  const checked = validateScriptRequest({
    brief: 'Explain how honey bees tell each other where flowers are.',
    sourceMaterial:
      'Forager honey bees perform a waggle dance on the vertical comb. The angle of the waggle run relative to vertical ' +
      'matches the angle between the sun and the food source, and the duration of the run encodes the distance.',
    sceneCount: 4,
    wordsPerScene: { min: 10, max: 45 },
    visualStyle: 'soft watercolour illustration',
    audience: 'curious ten-year-olds',
  });
  assert.ok(checked.ok);
  const script = await generateScript(checked.value, { model });
  t.diagnostic(
    `model ${script.meta.model}: ${script.meta.attempts} draft(s), ${script.meta.providerRequests} request(s), ` +
      `${script.meta.usage.totalTokens} tokens, ${script.meta.generationMs} ms, structured output ${script.meta.structuredOutput}`,
  );
  assert.equal(script.scenes.length, 4);
  assert.ok(script.title && script.description);
  assert.ok(script.scenes.every((s) => s.imagePrompt?.toLowerCase().includes('watercolour')));
  // The accepted script passes the same checker that judged its drafts.
  const again = checkDraft(
    { title: script.title, description: script.description, scenes: script.scenes },
    checkContext(checked.value),
  );
  assert.deepEqual(again, []);
});
