// The dashboard's pure modules, run in Node: the curl command, the same request as TypeScript and
// as Python, and where a finding's path is.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { curlCommand } from '../../dashboard/src/curl.ts';
import { locate, locateAll, syntaxErrorLine } from '../../dashboard/src/json-locate.ts';
import { pythonCode, pythonLiteral, renderBody, typescriptCode } from '../../dashboard/src/request-code.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A valid movie whose text needs every kind of quoting: quotes, backslashes, newlines, ${}, non-ASCII. */
const AWKWARD_MOVIE = {
  schema: 'v1',
  resolution: '480p',
  scenes: [
    {
      id: 's',
      duration: 1.5,
      background: '#000000',
      elements: [
        {
          id: 't',
          type: 'text',
          text: `it's $HOME \`id\` "JSON" """\nJSON\n\\ {{name}} \${x} é 日本 \u2028`,
          fontSize: 20,
        },
        { id: 'i', type: 'image', src: 'https://example.com/a.png?x=1&y="2"', position: { x: 0, y: -1 }, fit: 'cover' },
        { id: 'v', type: 'video', src: 'https://example.com/v.mp4', muted: true, loop: false, trimStart: 0 },
      ],
    },
  ],
  variables: { name: { type: 'string', default: 'Ada "Lovelace"', description: '' } },
  draft: false,
};

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

test('copy as TypeScript: a program that type-checks against the typed client and sends the body as is', () => {
  const render = { webhookUrl: 'https://hooks.example.com/x?a=1&b=2' };
  const code = typescriptCode('http://127.0.0.1:8080', render, AWKWARD_MOVIE);
  assert.match(code, /^import \{ createFramewrightClient, waitForRender \} from '@framewright\/client';$/m);
  assert.match(code, /apiKey: process\.env\.FRAMEWRIGHT_API_KEY/);
  // Type-checked as a user's module would be, '@framewright/client' being clients/typescript.
  const file = path.join(ROOT, '.tmp', 'copy-as-typescript.mts');
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    skipLibCheck: true,
    types: ['node'],
    paths: { '@framewright/client': [path.join(ROOT, 'clients/typescript/src/index.ts')] },
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => (path.resolve(name) === file ? code : readFile(name));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => path.resolve(name) === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  assert.deepEqual(problems, []);
  // The `body` of the POST call is the request body, unchanged.
  const source = program.getSourceFile(file)!;
  let body: ts.Expression | undefined;
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAssignment(node) && node.name.getText(source) === 'body') body = node.initializer;
    ts.forEachChild(node, visit);
  };
  visit(source);
  assert.ok(body);
  assert.deepEqual(JSON.parse(body.getText(source)), renderBody(render, AWKWARD_MOVIE));
});

test('copy as Python: a program whose body literal is the request body, with the typed client', async () => {
  const render = { webhookUrl: null };
  const code = pythonCode('http://127.0.0.1:8080', render, AWKWARD_MOVIE);
  assert.match(
    code,
    /^client = AuthenticatedClient\(base_url="http:\/\/127\.0\.0\.1:8080", token=os\.environ\["FRAMEWRIGHT_API_KEY"\]\)$/m,
  );
  assert.match(code, /create_render\.sync\(client=client, body=CreateRenderBody\.from_dict\(body\)\)/);
  assert.ok(!code.includes('webhook_url'));
  // Python parses the whole program; its `body` literal, evaluated, is the body; the typed model
  // takes it and gives it back unchanged (what create_render then sends).
  const check = [
    'import ast, json, sys',
    'tree = ast.parse(sys.stdin.read())',
    "[body] = [ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == 'body']",
    'from framewright_client.models import CreateRenderBody',
    'assert CreateRenderBody.from_dict(body).to_dict() == body',
    'print(json.dumps(body))',
  ].join('\n');
  const python = path.join(ROOT, '.cache/venv/bin/python');
  const child = execFile(python, ['-c', check], {
    env: {
      ...process.env,
      PYTHONPATH: path.join(ROOT, 'clients/python/framewright-client'),
      PYTHONDONTWRITEBYTECODE: '1',
    },
  });
  child.stdin?.end(code);
  let out = '';
  let err = '';
  child.stdout?.on('data', (c) => {
    out += c;
  });
  child.stderr?.on('data', (c) => {
    err += c;
  });
  const exit = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(exit, 0, err);
  assert.deepEqual(JSON.parse(out), renderBody(render, AWKWARD_MOVIE));
  // What the movie above has no room for: null, empty containers, non-finite numbers (JSON's null).
  assert.equal(
    pythonLiteral({ a: null, b: [], c: {}, d: [1.5, -0, Number.NaN], e: undefined }),
    '{\n    "a": None,\n    "b": [],\n    "c": {},\n    "d": [\n        1.5,\n        0,\n        None,\n    ],\n}',
  );
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

test('formatLength: lengths as people read them', async () => {
  const { formatLength, outputKindOf } = await import('../../dashboard/src/format.ts');
  const cases: [number | null, string][] = [
    [3.3666666666666667, '3.4 s'],
    [101 / 30, '3.4 s'],
    [2, '2 s'],
    [0.04, '0.1 s'],
    [0, '0 s'],
    [59.94, '59.9 s'],
    [59.96, '1 min'],
    [60, '1 min'],
    [160, '2 min 40 s'],
    [159.6, '2 min 40 s'],
    [3599.4, '59 min 59 s'],
    [3600, '1 h'],
    [3725, '1 h 2 min'],
    [null, '—'],
  ];
  for (const [sec, want] of cases) assert.equal(formatLength(sec), want, String(sec));
  const { OUTPUT_FORMATS, outputKind } = await import('../../lib/output-formats.ts');
  // The dashboard's copy of the table (its bundle does not carry the movie modules) agrees with it.
  for (const format of OUTPUT_FORMATS) assert.equal(outputKindOf({ format }), outputKind(format), format);
});

test("formatClock: a player's time and length", async () => {
  const { formatClock } = await import('../../dashboard/src/format.ts');
  const cases: [number, boolean, string][] = [
    [0, false, '0:00.0'],
    [1.5, false, '0:01.5'],
    // A frame's time is never shown ahead of it: 101 frames at 30 fps end at 3.33 s, last frame 3.33...
    [100 / 30, false, '0:03.3'],
    [0.3, false, '0:00.3'],
    [0.7, false, '0:00.7'],
    [59.99, false, '0:59.9'],
    [125.25, false, '2:05.2'],
    [-1, false, '0:00.0'],
    [Number.NaN, false, '0:00.0'],
    // A length is rounded, as formatLength rounds it: 3.3666... s is 3.4 s.
    [101 / 30, true, '0:03.4'],
    [59.96, true, '1:00.0'],
    [2, true, '0:02.0'],
  ];
  for (const [sec, round, want] of cases) assert.equal(formatClock(sec, round), want, `${sec} ${round}`);
});
