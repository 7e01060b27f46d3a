import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { VOICE_TAIL_SEC, validateMovie } from '../../movie/index.ts';
import { prepare } from '../../worker/prepare/prepare.ts';
import { EspeakClient } from '../../worker/prepare/speech/espeak.ts';
import { renderMovie } from '../../worker/run/render-movie.ts';
import { frameRgb, probe } from './media.ts';

const dir = mkdtempSync(join(tmpdir(), 'fw-voice-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const TEXT = 'Captions follow every spoken word exactly.';
const doc = {
  schema: 'v1',
  width: 320,
  height: 180,
  fps: 25,
  scenes: [
    {
      id: 'talk',
      duration: 'voice',
      background: '#000000',
      elements: [
        { id: 'v', type: 'voice', text: TEXT, voiceId: 'espeak-en-us', start: 0.2 },
        { id: 'subs', type: 'subtitles', fontSize: 20, color: '#ffffff', highlightColor: '#ff0000', wordsPerLine: 3 },
      ],
    },
  ],
};

const valid = () => {
  const r = validateMovie(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.findings));
  return r.value;
};

describe('voice and subtitles', () => {
  it('times subtitle words within 100 ms of the synthesiser word events', async () => {
    const espeak = new EspeakClient();
    const reference = await espeak.synthesize(TEXT, 'en-us', join(dir, 'ref.pcm'));
    espeak.close();
    const tmp = mkdtempSync(join(dir, 'prep-'));
    const p = await prepare({
      movie: valid(),
      format: 'mp4',
      tmpDir: tmp,
      draft: false,
      watermark: false,
      codec: 'libx264',
      fetchPolicy: { allowPrivate: false },
      speech: {},
    });
    const highlights = p.plan.layers.filter((l) => l.path === 'scenes[0].elements[1]' && l.crop);
    assert.equal(highlights.length, reference.words.length, 'one highlight per spoken word');
    highlights.forEach((h, i) => {
      const want = 0.2 + reference.words[i]!.ms / 1000;
      assert.ok(Math.abs(h.startSec - want) <= 0.1, `word ${i}: ${h.startSec} vs ${want}`);
    });
    // Not spread evenly: the synthesiser's gaps differ, and so do ours.
    const gaps = highlights.slice(1).map((h, i) => h.startSec - highlights[i]!.startSec);
    assert.ok(Math.max(...gaps) - Math.min(...gaps) > 0.05);
    // The scene lasts as long as the voice (from its start) plus the tail.
    const voiceSec = reference.samples / reference.sampleRate;
    assert.ok(Math.abs(p.timeline.durationSec - (0.2 + voiceSec + VOICE_TAIL_SEC)) < 1e-6);
  });

  it('renders AAC audio of the movie length and highlights the current word', async () => {
    const out = join(dir, 'voiced.mp4');
    const r = await renderMovie({
      movie: valid(),
      output: out,
      config: { ffmpegPath: 'ffmpeg', allowPrivateUrls: false, env: process.env },
    });
    assert.equal(r.hasAudio, true);
    const p = await probe(out);
    const audio = p.streams.filter((s) => s.codec_type === 'audio');
    assert.equal(audio.length, 1);
    assert.equal(audio[0]!.codec_name, 'aac');
    assert.ok(Math.abs(Number(p.format.duration) - r.durationSec) <= 0.05, `${p.format.duration} vs ${r.durationSec}`);
    // Half a second into the speech a word is lit: red pixels in the caption line.
    const f = await frameRgb(out, Math.round((0.2 + 0.5) * 25));
    let red = 0;
    for (let i = 0; i < f.length; i += 3) if (f[i]! > 180 && f[i + 1]! < 80 && f[i + 2]! < 80) red++;
    assert.ok(red > 10, `highlighted pixels: ${red}`);
  });
});
