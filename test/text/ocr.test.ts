/**
 * Reads rendered text back with tesseract: real movies through the real renderer, frames decoded
 * from the MP4, OCR compared with the text the document asked for. One movie holds a scene per
 * case and renders once; every case is its own test, so a failure names the font or the script.
 * The frames and a contact sheet are left in OCR_FRAMES_DIR (default: $TMPDIR/ocr-frames) to look at.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { FONT_FAMILIES } from '../../movie/fonts.ts';
import { validateMovie, voiceById } from '../../movie/index.ts';
import { EspeakClient } from '../../worker/prepare/speech/espeak.ts';
import type { WorkerConfig } from '../../worker/run/prepare-render.ts';
import { renderMovie } from '../../worker/run/render-movie.ts';
import { frameAt, type OcrPrepareOptions, ocr, prepareForOcr, similarity } from './ocr.ts';

const config: WorkerConfig = { ffmpegPath: 'ffmpeg', allowPrivateUrls: true, env: process.env };
const dir = mkdtempSync(join(tmpdir(), 'fw-ocr-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const FRAMES_DIR = process.env.OCR_FRAMES_DIR ?? join(tmpdir(), 'ocr-frames');

/**
 * The least similarity (test/text/ocr.ts) each script must reach.
 *
 * Measured first: the same sentences drawn by Pango (sharp's text input) with Inter and Noto Sans
 * (JP, SC, KR, Arabic, Devanagari) at 64 px, black on white, 1280x720, read by tesseract 5.3 with
 * Debian's 4.1 language packs at --psm 6, all score 1.000 except the French one, 0.955 (tesseract
 * reads ç as c). So tesseract is not what limits these tests; the renderer is. The canvaskit
 * renderer scored 1.000 on every case but Source Code Pro 400 (0.981, "Line" for "line"), French
 * (0.955) and Greek (0.947: ό read as ὀ). The opentype.js renderer before it, which cut lines off
 * and drew boxes for what its fonts lack: 0.096-0.615 for the cut-off families, 0.000-0.049 for
 * CJK, Arabic and Devanagari.
 *
 * ALPHABETIC 0.9 (Latin, Cyrillic, Greek, Vietnamese; 20-55 letters): about one misread character
 * in ten, for the confusions a font of its own may cause (ç/c, l/I, rn/m in condensed Oswald, a
 * Vietnamese tone mark), and no more. A sentence cut off after its first line scores 0.519; the
 * French one with its five accents dropped 0.77; boxes for letters about 0.
 *
 * COMPLEX 0.8 (CJK, Arabic, Devanagari; 10-17 characters once spaces go): two or three misread
 * characters. tesseract's models for these scripts are trained on fewer fonts and are touchier about
 * glyph shapes (an Arabic joining form, a Devanagari conjunct, a look-alike ideograph), and the
 * renderer's fallback font need not be the Noto face measured above. Half the sentence still scores
 * at most 0.5, boxes (tofu) under 0.05, and the Arabic sentence laid out left to right (no bidi)
 * 0.176, measured as above.
 */
const ALPHABETIC = 0.9;
const COMPLEX = 0.8;

/**
 * How frames are made ready for tesseract (test/text/ocr.ts prepareForOcr), also measured. Trimmed
 * to the text: a smaller picture, and no page layout to get wrong. The 64 px text is read at its
 * size: upscaled twice, the Vietnamese sentence dropped from 1.000 to 0.920 (tone marks). The 48 px
 * captions are upscaled twice: at their size tesseract read nothing at all of a correctly drawn
 * Arabic caption (0.000), and all of it (1.000) at twice the size; no other caption changed.
 */
const TEXT_PREP: OcrPrepareOptions = { trim: true };
const CAPTION_PREP: OcrPrepareOptions = { trim: true, scale: 2 };

/** Wraps at the default maxWidth (90% of 1280 px) onto two lines in every bundled family at 64 px. */
const WRAPPING = 'A long sentence that should wrap onto a second line of text here';

interface TextCase {
  name: string;
  text: string;
  /** tesseract language(s). */
  lang: string;
  min: number;
  font?: string;
  fontWeight?: number;
}

/** Scripts other than Latin are drawn in the default font (Inter): the renderer must fall back. */
const CASES: TextCase[] = [
  ...FONT_FAMILIES.flatMap((font) =>
    [400, 700].map((fontWeight) => ({
      name: `${font} ${fontWeight}`,
      text: WRAPPING,
      lang: 'eng',
      min: ALPHABETIC,
      font,
      fontWeight,
    })),
  ),
  { name: 'French (Latin accents)', text: 'Café déjà vu, naïve façade', lang: 'fra', min: ALPHABETIC },
  { name: 'Russian (Cyrillic)', text: 'Привет, как у тебя дела?', lang: 'rus', min: ALPHABETIC },
  { name: 'Greek', text: 'Καλημέρα από την Αθήνα', lang: 'ell', min: ALPHABETIC },
  { name: 'Vietnamese (stacked diacritics)', text: 'Tiếng Việt rất đẹp và phong phú', lang: 'vie', min: ALPHABETIC },
  { name: 'Japanese', text: '今日はとても良い天気です', lang: 'jpn', min: COMPLEX },
  { name: 'Simplified Chinese', text: '今天天气很好，我们去公园。', lang: 'chi_sim', min: COMPLEX },
  { name: 'Korean (Hangul)', text: '오늘 날씨가 정말 좋아요', lang: 'kor', min: COMPLEX },
  { name: 'Arabic (right to left, joined)', text: 'اللغة العربية جميلة', lang: 'ara', min: COMPLEX },
  { name: 'Hindi (Devanagari)', text: 'भारत एक विशाल देश है', lang: 'hin', min: COMPLEX },
];

/** The negative control: only the first line of WRAPPING, read against the whole sentence. */
const TRUNCATED: TextCase = {
  name: 'control: the first line only',
  text: 'A long sentence that should wrap',
  lang: 'eng',
  min: ALPHABETIC,
};

interface CaptionCase {
  name: string;
  voiceId: string;
  text: string;
  lang: string;
  min: number;
}

/** Sentences without commas: a pause over 0.6 s would start a second caption line. */
const CAPTIONS: CaptionCase[] = [
  { name: 'English', voiceId: 'espeak-en-us', text: 'Every spoken word is shown here', lang: 'eng', min: ALPHABETIC },
  { name: 'Russian', voiceId: 'espeak-ru-ru', text: 'Сегодня хорошая погода', lang: 'rus', min: ALPHABETIC },
  { name: 'Japanese', voiceId: 'espeak-ja-jp', text: '今日はとても良い天気です', lang: 'jpn', min: COMPLEX },
  { name: 'Chinese', voiceId: 'espeak-zh-cn', text: '我们明天一起去学校', lang: 'chi_sim', min: COMPLEX },
  { name: 'Korean', voiceId: 'espeak-ko-kr', text: '오늘 날씨가 정말 좋아요', lang: 'kor', min: COMPLEX },
  { name: 'Arabic', voiceId: 'espeak-ar-sa', text: 'اللغة العربية جميلة', lang: 'ara', min: COMPLEX },
  { name: 'Hindi', voiceId: 'espeak-hi-in', text: 'भारत एक विशाल देश है', lang: 'hin', min: COMPLEX },
];

const FPS = 10;
const SCENE_SEC = 0.5;

const valid = (doc: unknown) => {
  const r = validateMovie(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.findings));
  return r.value;
};

/** Runs `fn` over `items`, `limit` at a time (tesseract and ffmpeg are single-threaded here). */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<R>) {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

interface Reading {
  /** Order of the case in its movie, the first movie's first: the frames are saved in that order. */
  order: number;
  name: string;
  text: string;
  got: string;
  score: number;
  min: number;
  png: Buffer;
}

const readings = new Map<string, Reading>();
let readCount = 0;

async function read(
  mp4: string,
  sec: number,
  c: { name: string; text: string; lang: string; min: number },
  prep: OcrPrepareOptions,
) {
  const order = readCount++;
  const png = await frameAt(mp4, sec);
  const got = await ocr(await prepareForOcr(png, prep), c.lang);
  const r = { order, name: c.name, text: c.text, got, score: similarity(c.text, got), min: c.min, png };
  readings.set(c.name, r);
  return r;
}

function check(t: { diagnostic(message: string): void }, r: Reading | undefined) {
  assert.ok(r, 'no reading: the render or the OCR failed (see the hook failure)');
  t.diagnostic(`similarity ${r.score.toFixed(3)} (min ${r.min}); read ${JSON.stringify(r.got)}`);
  assert.ok(
    r.score >= r.min,
    `similarity ${r.score.toFixed(3)} < ${r.min}: expected ${JSON.stringify(r.text)}, read ${JSON.stringify(r.got)}`,
  );
}

const slugOf = (name: string) => name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** Every frame read, at full size, and a contact sheet of them at half size with the scores. */
async function saveFrames() {
  if (readings.size === 0) return;
  mkdirSync(FRAMES_DIR, { recursive: true });
  // Those of an earlier run go: the cases, and so the numbered names, may have changed since.
  for (const f of readdirSync(FRAMES_DIR)) if (/^\d+-.+\.png$/.test(f)) rmSync(join(FRAMES_DIR, f));
  const all = [...readings.values()].sort((a, b) => a.order - b.order);
  const tileW = 640;
  const tileH = 360;
  const labelH = 28;
  const cols = 4;
  const tiles = await Promise.all(
    all.map(async (r, i) => {
      writeFileSync(join(FRAMES_DIR, `${String(i).padStart(2, '0')}-${slugOf(r.name)}.png`), r.png);
      const label = `${r.name}: ${r.score.toFixed(3)} ${r.score >= r.min ? 'ok' : `< ${r.min}`}`;
      const markup = `<span foreground="black">${label.replace(/[<&>]/g, (ch) => `&#${ch.charCodeAt(0)};`)}</span>`;
      const text = await sharp({ text: { text: markup, font: 'DejaVu Sans 16', dpi: 72, rgba: true } })
        .png()
        .toBuffer();
      const thumb = await sharp(r.png).resize(tileW, tileH).png().toBuffer();
      const left = (i % cols) * tileW;
      const top = Math.floor(i / cols) * (tileH + labelH);
      return [
        { input: thumb, left, top: top + labelH },
        { input: text, left: left + 6, top: top + 4 },
      ];
    }),
  );
  const rows = Math.ceil(all.length / cols);
  await sharp({
    create: { width: cols * tileW, height: rows * (tileH + labelH), channels: 3, background: '#d0d0d0' },
  })
    .composite(tiles.flat())
    .png()
    .toFile(join(FRAMES_DIR, 'contact-sheet.png'));
  console.log(`ocr: frames and contact-sheet.png in ${FRAMES_DIR}`);
  console.log(all.map((r) => `  ${r.score.toFixed(3)} ${r.score >= r.min ? 'ok  ' : 'FAIL'} ${r.name}`).join('\n'));
}
after(saveFrames);

describe('OCR: the thresholds', () => {
  it('reject every case cut to its first half', () => {
    for (const c of [...CASES, ...CAPTIONS]) {
      const chars = Array.from(c.text);
      const half = similarity(c.text, chars.slice(0, Math.ceil(chars.length / 2)).join(''));
      assert.ok(half < c.min, `${c.name}: half the sentence scores ${half.toFixed(3)} >= ${c.min}`);
    }
  });
});

describe('OCR: text in every bundled family and in other scripts, 64 px black on white', () => {
  const scenes = [...CASES, TRUNCATED];
  before(async () => {
    const doc = {
      schema: 'v1',
      width: 1280,
      height: 720,
      fps: FPS,
      scenes: scenes.map((c, i) => ({
        id: `case-${i}`,
        duration: SCENE_SEC,
        background: '#ffffff',
        elements: [
          {
            id: `text-${i}`,
            type: 'text',
            text: c.text,
            color: '#000000',
            fontSize: 64,
            ...(c.font ? { font: c.font } : {}),
            ...(c.fontWeight ? { fontWeight: c.fontWeight } : {}),
          },
        ],
      })),
    };
    const out = join(dir, 'text.mp4');
    await renderMovie({ movie: valid(doc), output: out, config });
    // The middle frame of each scene.
    await mapLimit(scenes, 2, (c, i) => read(out, (i + 0.5) * SCENE_SEC, c, TEXT_PREP));
  });

  for (const c of CASES) {
    it(`${c.name}: ${JSON.stringify(c.text)} (${c.lang})`, (t) => check(t, readings.get(c.name)));
  }

  it('a render cut off after the first line fails the threshold', (t) => {
    const r = readings.get(TRUNCATED.name);
    assert.ok(r, 'no reading of the control scene');
    const score = similarity(WRAPPING, r.got);
    t.diagnostic(`the first line alone scores ${score.toFixed(3)} against the whole sentence; read ${r.got}`);
    // Read well on its own (so the OCR works), and far from the whole sentence.
    assert.ok(r.score >= ALPHABETIC, `the first line alone reads as ${JSON.stringify(r.got)}`);
    assert.ok(score < ALPHABETIC, `a truncated render scores ${score.toFixed(3)} >= ${ALPHABETIC}`);
  });
});

describe('OCR: captions of spoken sentences, 48 px black on white', () => {
  before(async () => {
    // The voices' lengths, from the same espeak-ng the renderer speaks with: each scene lasts its
    // voice plus at least half a second, and is read 0.1 s after the voice ends. The whole
    // sentence is one caption line (wordsPerLine 20), up from its first word until 0.6 s after
    // its last (worker/prepare/captions.ts), so that frame shows all of it.
    const espeak = new EspeakClient();
    let voiceSecs: number[];
    try {
      voiceSecs = await Promise.all(
        CAPTIONS.map(async (c, i) => {
          const v = voiceById(c.voiceId);
          assert.ok(v, `no voice ${c.voiceId}`);
          const r = await espeak.synthesize(c.text, v.engineVoice, join(dir, `voice-${i}.pcm`));
          return r.samples / r.sampleRate;
        }),
      );
    } finally {
      espeak.close();
    }
    const durations = voiceSecs.map((s) => Math.ceil((s + 0.5) * FPS) / FPS);
    const doc = {
      schema: 'v1',
      width: 1280,
      height: 720,
      fps: FPS,
      scenes: CAPTIONS.map((c, i) => ({
        id: `caption-${i}`,
        duration: durations[i]!,
        background: '#ffffff',
        elements: [
          { id: `voice-${i}`, type: 'voice', text: c.text, voiceId: c.voiceId },
          // The spoken word in dark blue rather than the default yellow, which is about as light
          // as the white behind it once grey: OCR is to read every word, lit or not.
          { id: `subs-${i}`, type: 'subtitles', color: '#000000', highlightColor: '#0000c0', wordsPerLine: 20 },
        ],
      })),
    };
    const out = join(dir, 'captions.mp4');
    await renderMovie({ movie: valid(doc), output: out, config });
    const starts = durations.map((_, i) => durations.slice(0, i).reduce((a, b) => a + b, 0));
    await mapLimit(CAPTIONS, 2, (c, i) =>
      read(out, starts[i]! + voiceSecs[i]! + 0.1, { ...c, name: `caption: ${c.name}` }, CAPTION_PREP),
    );
  });

  for (const c of CAPTIONS) {
    it(`${c.name} (${c.voiceId}): ${JSON.stringify(c.text)}`, (t) => check(t, readings.get(`caption: ${c.name}`)));
  }
});
