/**
 * Document builders for tests and benchmarks: `movieDoc().scenes(3).obj()` style, so a test
 * states only what it changes. Returns plain JSON values (no classes), as a request body would be.
 */
type Json = Record<string, unknown>;

/** A small valid document: one 3-second scene with one text element. */
export function minimalDoc(): Json {
  return {
    schema: 'v1',
    preset: '16:9',
    scenes: [{ id: 's1', duration: 3, elements: [{ id: 't1', type: 'text', text: 'Hello' }] }],
  };
}

/** One scene with every element type: text, image, voice and subtitles. */
export function richScene(i: number, opts: { placeholders?: boolean } = {}): Json {
  const p = opts.placeholders;
  return {
    id: `scene-${i}`,
    duration: i % 3 === 0 ? 'voice' : 4 + (i % 5),
    background: i % 2 ? '#102030' : 'midnightblue',
    elements: [
      {
        id: `title-${i}`,
        type: 'text',
        text: p ? `Chapter ${i}: {{title}} for {{name}}` : `Chapter ${i}: a heading for the scene`,
        font: 'Montserrat',
        fontSize: p ? '{{size}}' : 72,
        fontWeight: 700,
        color: p ? '{{accent}}' : '#ffffff',
        align: 'center',
        maxWidth: 1600,
        lineHeight: 1.2,
        position: { x: 160, y: 120 },
        start: 0,
        duration: 3,
        animation: { preset: 'slide-in-up', duration: 0.5 },
      },
      {
        id: `image-${i}`,
        type: 'image',
        src: p ? '{{imageUrl}}' : `https://images.example.com/scene-${i}.jpg`,
        width: 1280,
        height: 720,
        fit: 'cover',
        position: 'center',
        animation: { preset: 'zoom-in' },
      },
      {
        id: `voice-${i}`,
        type: 'voice',
        text: `This is the narration of scene number ${i}, spoken by the default English voice.`,
        voiceId: 'espeak-en-us',
        language: 'en-US',
      },
      {
        id: `subs-${i}`,
        type: 'subtitles',
        font: 'Inter',
        fontSize: 44,
        color: 'white',
        highlightColor: '#ffd400',
        backgroundColor: '#00000080',
        wordsPerLine: 5,
      },
    ],
  };
}

/** A document with `n` rich scenes; with placeholders it declares and references variables. */
export function bigDoc(n: number, opts: { placeholders?: boolean } = {}): Json {
  const doc: Json = {
    schema: 'v1',
    preset: '16:9',
    resolution: '1080p',
    fps: 30,
    scenes: Array.from({ length: n }, (_, i) => richScene(i, opts)),
  };
  if (opts.placeholders) {
    doc.variables = {
      title: { type: 'string', default: 'The Story', description: 'Heading text' },
      name: { type: 'string' },
      size: { type: 'number', default: 72 },
      accent: { type: 'color', default: '#ffcc00' },
      imageUrl: { type: 'url', default: 'https://images.example.com/cover.jpg' },
    };
  }
  return doc;
}

/** Request values for `bigDoc(n, { placeholders: true })`. */
export const BIG_DOC_VALUES = { name: 'Ada', size: '64' } as const;
