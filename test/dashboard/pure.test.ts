// The dashboard's pure modules, run in Node: the curl command and where a finding's path is.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { curlCommand } from '../../dashboard/src/curl.ts';
import { locate, locateAll, syntaxErrorLine } from '../../dashboard/src/json-locate.ts';

const run = promisify(execFile);

test('copy as curl: any document survives the shell, and the key is never in it', async () => {
  const movie = {
    schema: 'v1',
    scenes: [{ id: 's', elements: [{ id: 't', type: 'text', text: `it's $HOME \`id\` "JSON"\nJSON\n\\ {{name}}` }] }],
  };
  const command = curlCommand('http://127.0.0.1:8080', { webhookUrl: 'https://hooks.example.com/x?a=1&b=2' }, movie);
  assert.match(command, /^curl -sS -X POST 'http:\/\/127\.0\.0\.1:8080\/v1\/renders'/);
  assert.match(command, /Authorization: Bearer \$FRAMEWRIGHT_API_KEY/);
  // `curl` replaced by a function that prints what it was given on stdin and its arguments.
  const { stdout } = await run('bash', ['-c', `curl() { printf '%s\\n' "$@" >&2; cat; }\n${command}`], {
    env: { PATH: process.env.PATH, FRAMEWRIGHT_API_KEY: 'fw_test_secret' },
  });
  assert.deepEqual(JSON.parse(stdout), { movie, webhook_url: 'https://hooks.example.com/x?a=1&b=2' });
  const { stderr } = await run('bash', ['-c', `curl() { printf '%s\\n' "$@" >&2; cat >/dev/null; }\n${command}`], {
    env: { PATH: process.env.PATH, FRAMEWRIGHT_API_KEY: 'fw_test_secret' },
  });
  assert.match(stderr, /^Authorization: Bearer fw_test_secret$/m, 'the key comes from the environment');
  assert.ok(!curlCommand('http://x', { webhookUrl: null }, movie).includes('webhook_url'));
});

test('a finding path points at its value, or at the nearest object that has it', () => {
  const text = JSON.stringify(
    { schema: 'v1', scenes: [{ id: 'a', duration: -1, elements: [{ id: 't', 'odd key': 1 }] }] },
    null,
    2,
  );
  const spans = locateAll(text);
  const at = (path: string) => {
    const s = locate(spans, path);
    return s && { text: text.slice(s.start, s.end), line: s.line };
  };
  assert.deepEqual(at('scenes[0].duration'), { text: '-1', line: 6 });
  assert.deepEqual(at('scenes[0].elements[0].id'), { text: '"t"', line: 9 });
  assert.deepEqual(at('scenes[0].elements[0]["odd key"]'), { text: '1', line: 10 });
  // A missing field: the object that lacks it.
  assert.equal(at('scenes[0].elements[0].text')?.line, 8);
  assert.equal(at('preset')?.line, 1);
  assert.equal(at('')?.line, 1);
  const broken = '{\n  "a": 1,\n}';
  let bad: unknown;
  try {
    JSON.parse(broken);
  } catch (err) {
    bad = err;
  }
  assert.equal(syntaxErrorLine(broken, bad), 3, String(bad));
  // What Chromium's V8 says.
  assert.equal(syntaxErrorLine(broken, new SyntaxError('Expected x at position 11 (line 3 column 1)')), 3);
  assert.equal(syntaxErrorLine(broken, new SyntaxError('Unexpected token')), undefined);
});
