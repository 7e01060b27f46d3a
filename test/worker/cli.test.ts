import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ERROR_CATALOG } from '../../lib/errors.ts';
import { silentMovie } from './fixtures.ts';
import { probe } from './media.ts';

const BIN = fileURLToPath(new URL('../../bin/framewright', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'fw-cli-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe('framewright render', () => {
  it('renders with --json progress events and a result, exit 0', async () => {
    const input = join(dir, 'movie.json');
    const output = join(dir, 'out.mp4');
    writeFileSync(input, JSON.stringify(await silentMovie()));
    const r = await run(['render', input, '-o', output, '--json', '--draft']);
    assert.equal(r.code, 0, r.stderr);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(events[0].event, 'progress');
    assert.ok(events.some((e) => e.event === 'progress' && e.phase === 'rendering'));
    const result = events.at(-1);
    assert.equal(result.event, 'result');
    assert.deepEqual([result.width, result.height], [160, 90]);
    assert.equal((await probe(output)).streams[0]?.width, 160);
  });

  it('prints plain lines when not on a terminal', async () => {
    const input = join(dir, 'movie2.json');
    writeFileSync(input, JSON.stringify(await silentMovie()));
    const r = await run(['render', input, '-o', join(dir, 'out2.mp4'), '--draft']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^preparing 0%$/m);
    assert.match(r.stderr, /^done 100%$/m);
  });

  it('exits with the catalog exit number and prints the code for an invalid document', async () => {
    const input = join(dir, 'bad.json');
    writeFileSync(input, JSON.stringify({ schema: 'v1', width: 320, height: 180, scenes: [] }));
    const r = await run(['render', input, '-o', join(dir, 'bad.mp4')]);
    assert.notEqual(r.code, 0);
    const code = Object.entries(ERROR_CATALOG).find(([, v]) => v.exit === r.code)?.[0];
    assert.ok(code, `exit ${r.code} is a catalog exit number`);
    assert.match(r.stderr, new RegExp(code));
  });

  it('exits 30 (ASSET_UNREACHABLE) for an image on a private address', async () => {
    const input = join(dir, 'private.json');
    writeFileSync(
      input,
      JSON.stringify({
        schema: 'v1',
        width: 160,
        height: 90,
        scenes: [{ id: 's', duration: 1, elements: [{ id: 'i', type: 'image', src: 'http://127.0.0.1:9/x.png' }] }],
      }),
    );
    const r = await run(['render', input, '-o', join(dir, 'p.mp4'), '--json']);
    assert.equal(r.code, ERROR_CATALOG.ASSET_UNREACHABLE.exit);
    const failed = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
    assert.deepEqual(
      [failed.event, failed.code, failed.path],
      ['failed', 'ASSET_UNREACHABLE', 'scenes[0].elements[0].src'],
    );
  });
});

describe('framewright voices', () => {
  it('lists the catalogue', async () => {
    const r = await run(['voices']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /espeak-en-us\s+espeak\s+en-US/);
    assert.match(r.stdout, /openai-alloy/);
  });
});
