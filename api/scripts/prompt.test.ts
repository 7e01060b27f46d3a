import assert from 'node:assert/strict';
import { test } from 'node:test';
import { enforcedConstraints } from './constraints.ts';
import type { Violation } from './draft.ts';
import { buildMessages, buildRepairMessage, draftJsonSchema, MAX_VIOLATIONS_LISTED } from './prompt.ts';
import { validateScriptRequest } from './validate-script-request.ts';

function messagesFor(body: Record<string, unknown>) {
  const r = validateScriptRequest({ brief: 'Bees and their dances', ...body });
  if (!r.ok) throw new Error('bad request');
  return buildMessages(r.value, enforcedConstraints(r.value));
}

test('the system prompt states every set constraint with its numbers', () => {
  const [system, user] = messagesFor({
    sceneCount: 7,
    wordsPerScene: { min: 10, max: 30 },
    language: 'French',
    visualStyle: 'linocut print',
    targetDurationSec: 90,
    sourceMaterial: 'Bees dance.',
    tone: 'playful',
    audience: 'children',
    structure: 'hook, three facts, call to action',
  });
  assert.equal(system?.role, 'system');
  for (const needle of [
    'exactly 7 scenes',
    'between 10 and 30 words',
    'in French',
    'word for word: "linocut print"',
    'about 90 seconds',
    'never repeat 12 or more consecutive words',
  ]) {
    assert.ok(system?.content.includes(needle), `system prompt lacks "${needle}":\n${system?.content}`);
  }
  for (const needle of [
    'Bees and their dances',
    'Tone: playful',
    'Audience: children',
    'hook, three facts',
    'Bees dance.',
  ]) {
    assert.ok(user?.content.includes(needle), `user prompt lacks "${needle}"`);
  }
});

test('defaults: a range of scenes, nulls for what is not asked', () => {
  const [system] = messagesFor({ includeImagePrompts: false, includeTitle: false, includeDescription: false });
  assert.match(system?.content ?? '', /between 10 and 14 scenes/);
  assert.match(system?.content ?? '', /Set every imagePrompt to null/);
  assert.match(system?.content ?? '', /Set title to null/);
  assert.match(system?.content ?? '', /Set description to null/);
  assert.match(system?.content ?? '', /in English/);
});

test('the response schema requires title only when asked, in strict form', () => {
  const r = validateScriptRequest({ brief: 'b', includeTitle: false });
  if (!r.ok) throw new Error('bad');
  const schema = draftJsonSchema(enforcedConstraints(r.value)) as {
    required: string[];
    properties: Record<string, { type: unknown }>;
  };
  assert.deepEqual(schema.required, ['title', 'description', 'scenes']);
  assert.deepEqual(schema.properties.title?.type, ['string', 'null']);
  assert.deepEqual(schema.properties.description?.type, 'string');
});

test('the repair message names each violation and caps the list', () => {
  const one: Violation[] = [
    { constraint: 'sceneCount', path: 'scenes', message: 'the script has 9 scenes; it must have exactly 8' },
  ];
  assert.match(buildRepairMessage(one), /- scenes: the script has 9 scenes; it must have exactly 8/);
  const many: Violation[] = Array.from({ length: 30 }, (_, i) => ({
    constraint: 'wordsPerScene',
    path: `scenes[${i}].voiceText`,
    message: 'too long',
  }));
  const text = buildRepairMessage(many);
  assert.equal(text.split('\n').filter((l) => l.startsWith('- scenes[')).length, MAX_VIOLATIONS_LISTED);
  assert.match(text, /and 10 more problems/);
});
