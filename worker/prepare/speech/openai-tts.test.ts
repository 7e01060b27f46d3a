import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { openaiSpeech } from './openai-tts.ts';

/** A local server speaking OpenAI's /audio/speech: records each request, answers with `pcm` bytes. */
async function speechServer(answer: () => { status: number; body: Buffer }) {
  const seen: { path: string; auth: string | undefined; body: Record<string, unknown> }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      seen.push({ path: req.url ?? '', auth: req.headers.authorization, body: JSON.parse(text) });
      const a = answer();
      res.writeHead(a.status, { 'content-type': a.status === 200 ? 'audio/pcm' : 'application/json' });
      res.end(a.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { url, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

test('openaiSpeech asks for pcm with the voice and text, and returns the samples (an odd last byte dropped)', async () => {
  const samples = Int16Array.from([0, 1000, -1000, 32767, -32768]);
  const bytes = Buffer.concat([Buffer.from(samples.buffer), Buffer.from([7])]);
  const s = await speechServer(() => ({ status: 200, body: bytes }));
  try {
    const got = await openaiSpeech({ apiKey: 'sk-test', baseURL: s.url, voice: 'nova', text: 'Hello there.' });
    assert.deepEqual(Array.from(got), Array.from(samples));
    assert.equal(s.seen.length, 1);
    const [req] = s.seen;
    assert.ok(req);
    assert.equal(req.path, '/v1/audio/speech');
    assert.equal(req.auth, 'Bearer sk-test');
    assert.deepEqual(req.body, { model: 'tts-1', voice: 'nova', input: 'Hello there.', response_format: 'pcm' });
  } finally {
    await s.close();
  }
});

test('openaiSpeech fails with the API error of a refusal (after its one retry of a 5xx)', async () => {
  const s = await speechServer(() => ({
    status: 503,
    body: Buffer.from(JSON.stringify({ error: { message: 'overloaded', type: 'server_error' } })),
  }));
  try {
    await assert.rejects(
      openaiSpeech({ apiKey: 'sk-test', baseURL: s.url, voice: 'alloy', text: 'x', model: 'tts-1-hd' }),
      (e: unknown) => (e as { status?: number }).status === 503 && /overloaded/.test(String(e)),
    );
    assert.equal(s.seen.length, 2, 'maxRetries: 1');
    assert.equal(s.seen.at(-1)?.body.model, 'tts-1-hd');
  } finally {
    await s.close();
  }
});
