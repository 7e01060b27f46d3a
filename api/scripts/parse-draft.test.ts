import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDraft } from './parse-draft.ts';

const good = { title: 'T', description: 'D', scenes: [{ voiceText: 'Hello there.', imagePrompt: 'a cat' }] };

const accepted: [string, string][] = [
  ['bare JSON', JSON.stringify(good)],
  ['a Markdown fence', `Here you go:\n\`\`\`json\n${JSON.stringify(good, null, 2)}\n\`\`\`\nEnjoy!`],
  ['prose around the object', `Sure! ${JSON.stringify(good)} Hope this helps.`],
];
for (const [name, content] of accepted) {
  test(`parses ${name}`, () => {
    const r = parseDraft(content);
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.draft, {
      title: 'T',
      description: 'D',
      scenes: [{ voiceText: 'Hello there.', imagePrompt: 'a cat' }],
    });
  });
}

test('missing and blank optional texts become null; text is trimmed', () => {
  const r = parseDraft(JSON.stringify({ title: '  ', scenes: [{ voiceText: '  Hi. ' }] }));
  assert.ok(r.ok);
  assert.deepEqual(r.draft, { title: null, description: null, scenes: [{ voiceText: 'Hi.', imagePrompt: null }] });
});

const rejected: [string, string | null, string, RegExp][] = [
  ['empty answer', '', '', /empty/],
  ['null content', null, '', /empty/],
  ['not JSON', 'I cannot help with that.', '', /not valid JSON/],
  ['a JSON array', '[1,2]', '', /JSON object/],
  ['scenes not an array', '{"scenes": "x"}', 'scenes', /array/],
  ['scene without voiceText', '{"scenes": [{"imagePrompt": "x"}]}', 'scenes[0].voiceText', /non-empty string/],
  ['scene that is a string', '{"scenes": ["hi"]}', 'scenes[0]', /object/],
  ['title a number', '{"title": 3, "scenes": []}', 'title', /string or null/],
];
for (const [name, content, path, message] of rejected) {
  test(`rejects ${name} as a format violation at "${path}"`, () => {
    const r = parseDraft(content);
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.equal(r.violations[0]?.constraint, 'format');
    assert.equal(r.violations[0]?.path, path);
    assert.match(r.violations[0]?.message ?? '', message);
  });
}
