/**
 * Writes the example movie documents. Images are small generated PNGs inlined as data: URIs so
 * every example renders offline. Run: `node --import tsx examples/make-examples.ts`.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const here = dirname(fileURLToPath(import.meta.url));

async function png(svgBody: string, size = 256): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 200 200">${svgBody}</svg>`;
  const bytes = await sharp(Buffer.from(svg)).png({ compressionLevel: 9, palette: true, colours: 64 }).toBuffer();
  return `data:image/png;base64,${bytes.toString('base64')}`;
}

const PALETTE = ['#ff6b35', '#2ec4b6', '#e71d36', '#ffbf69', '#6a4c93', '#1982c4'];
const BACKGROUNDS = ['#1a2238', '#0b3d2e', '#2b193d', '#3d2b1f', '#14213d', '#222222'];

const shape = (i: number) => {
  const c = PALETTE[i % PALETTE.length];
  const shapes = [
    `<circle cx="100" cy="100" r="90" fill="${c}"/><circle cx="100" cy="100" r="50" fill="#ffffff"/>`,
    `<rect x="15" y="15" width="170" height="170" rx="30" fill="${c}"/><rect x="60" y="60" width="80" height="80" fill="#ffffff"/>`,
    `<polygon points="100,10 190,190 10,190" fill="${c}"/><circle cx="100" cy="130" r="35" fill="#ffffff"/>`,
    `<circle cx="70" cy="100" r="60" fill="${c}"/><circle cx="130" cy="100" r="60" fill="#ffffff" fill-opacity="0.7"/>`,
    `<rect x="10" y="80" width="180" height="40" fill="${c}"/><rect x="80" y="10" width="40" height="180" fill="${c}"/>`,
    `<ellipse cx="100" cy="100" rx="90" ry="55" fill="${c}"/><ellipse cx="100" cy="100" rx="30" ry="55" fill="#ffffff"/>`,
  ];
  return shapes[i % shapes.length]!;
};

const NARRATION = [
  'Framewright turns a short JSON document into a finished video, with text, images, narration and captions.',
  'Every scene has a background colour, and elements are drawn in the order they are written, later ones on top.',
  'Text is set in one of ten bundled font families, wrapped to the frame, in any weight and colour you choose.',
  'Images arrive as links or data URIs, and they fit their box by containing, covering or filling it.',
  'Narration is synthesised offline, and the captions follow the real timing of every spoken word.',
  'Frames are drawn on the graphics card, converted to video colour there, and encoded without waiting.',
];

async function hello() {
  return {
    schema: 'v1',
    preset: '16:9',
    resolution: '480p',
    fps: 30,
    scenes: [
      {
        id: 'intro',
        duration: 'voice',
        background: '#1a2238',
        elements: [
          {
            id: 'logo',
            type: 'image',
            src: await png(shape(0), 128),
            width: 160,
            height: 160,
            position: { x: 60, y: 40 },
            animation: { preset: 'zoom-in', duration: 0.6 },
          },
          {
            id: 'title',
            type: 'text',
            text: 'Hello, Framewright!',
            font: 'Montserrat',
            fontSize: 56,
            fontWeight: 700,
            color: '#ffffff',
            animation: { preset: 'slide-in-up', duration: 0.6 },
          },
          {
            id: 'hello-voice',
            type: 'voice',
            text: 'Hello world. This movie was rendered by Framewright.',
            voiceId: 'espeak-en-us',
          },
          {
            id: 'captions',
            type: 'subtitles',
            fontSize: 28,
            color: '#ffffff',
            highlightColor: '#ffd400',
            wordsPerLine: 4,
          },
        ],
      },
    ],
  };
}

/** 60 s at 1080p30: six 10-second scenes of text and images, zoom-in and slide-in-up, narration, subtitles. */
async function bench60() {
  const scenes = [];
  for (let i = 0; i < 6; i++) {
    scenes.push({
      id: `scene-${i + 1}`,
      duration: 10,
      background: BACKGROUNDS[i],
      elements: [
        {
          id: `image-${i + 1}`,
          type: 'image',
          src: await png(shape(i), 400),
          width: 560,
          height: 560,
          position: { x: 140, y: 200 },
          animation: { preset: i % 2 === 0 ? 'zoom-in' : 'slide-in-up', duration: 0.8 },
        },
        {
          id: `title-${i + 1}`,
          type: 'text',
          text: `Part ${i + 1}: ${['Documents', 'Scenes', 'Text', 'Images', 'Voice', 'Speed'][i]}`,
          font: 'Montserrat',
          fontSize: 88,
          fontWeight: 700,
          color: '#ffffff',
          align: 'left',
          maxWidth: 1000,
          position: { x: 780, y: 300 },
          animation: { preset: i % 2 === 0 ? 'slide-in-up' : 'zoom-in', duration: 0.8 },
        },
        {
          id: `body-${i + 1}`,
          type: 'text',
          text: 'Rendered with three.js on headless-gl, encoded by ffmpeg.',
          font: 'Inter',
          fontSize: 40,
          color: '#d0d0d0',
          align: 'left',
          maxWidth: 1000,
          position: { x: 780, y: 460 },
          start: 0.5,
          animation: { preset: 'slide-in-up', duration: 0.8 },
        },
        { id: `voice-${i + 1}`, type: 'voice', text: NARRATION[i], voiceId: 'espeak-en-us' },
        { id: `captions-${i + 1}`, type: 'subtitles', fontSize: 52, wordsPerLine: 6, backgroundColor: '#00000099' },
      ],
    });
  }
  return { schema: 'v1', preset: '16:9', resolution: '1080p', fps: 30, scenes };
}

/** Every field of the v1 document at least once: all presets, fits, fonts by name, positions, timing. */
async function everyField() {
  const presets = [
    'zoom-in',
    'zoom-out',
    'fade-in',
    'fade-out',
    'slide-in-up',
    'slide-in-down',
    'slide-in-left',
    'slide-in-right',
  ];
  return {
    schema: 'v1',
    width: 640,
    height: 360,
    fps: 25,
    draft: false,
    variables: {
      headline: { type: 'string', default: 'Every field', description: 'Shown in the first scene' },
    },
    scenes: [
      {
        id: 'texts',
        duration: 3,
        background: 'midnightblue',
        elements: presets.slice(0, 4).map((preset, i) => ({
          id: `text-${preset}`,
          type: 'text',
          text: i === 0 ? 'Every field' : `${preset}\nsecond line`,
          font: ['Inter', 'Roboto', 'Open Sans', 'Lato'][i],
          fontSize: 28,
          fontWeight: [400, 700, 300, 900][i],
          color: ['#fff', '#ffd400', '#2ec4b6cc', 'white'][i],
          align: ['left', 'center', 'right', 'center'][i],
          maxWidth: 280,
          lineHeight: 1.1,
          position: { x: 20 + (i % 2) * 320, y: 20 + Math.floor(i / 2) * 170 },
          start: 0.2 * i,
          duration: 2.5 - 0.2 * i,
          animation: { preset, duration: 0.5 },
        })),
      },
      {
        id: 'images',
        duration: 3,
        background: '#203040',
        elements: [
          ...(await Promise.all(
            (['contain', 'cover', 'fill'] as const).map(async (fit, i) => ({
              id: `image-${fit}`,
              type: 'image',
              src: await png(shape(i + 1), 120),
              width: 180,
              height: 120,
              fit,
              position: { x: 20 + i * 210, y: 40 },
              animation: { preset: presets[4 + i], duration: 0.5 },
            })),
          )),
          {
            id: 'image-centred',
            type: 'image',
            src: await png(shape(4), 64),
            width: 100,
            height: 100,
            position: 'center',
            start: 0.5,
            duration: 2,
            animation: { preset: presets[7], duration: 0.5 },
          },
          {
            id: 'fonts',
            type: 'text',
            text: 'Montserrat · Merriweather · Playfair Display',
            font: 'Merriweather',
            fontSize: 20,
            position: { x: 20, y: 300 },
          },
        ],
      },
      {
        id: 'voiced',
        duration: 'voice',
        background: '#102030',
        elements: [
          {
            id: 'title-voiced',
            type: 'text',
            text: 'Oswald, Source Code Pro, Noto Sans',
            font: 'Oswald',
            fontSize: 30,
            position: 'center',
          },
          { id: 'voice-en', type: 'voice', text: 'Captions follow the voice.', language: 'en-US' },
          {
            id: 'voice-gb',
            type: 'voice',
            text: 'And a second voice.',
            voiceId: 'espeak-en-gb',
            language: 'en-GB',
            start: 1.8,
          },
          {
            id: 'captions-styled',
            type: 'subtitles',
            font: 'Noto Sans',
            fontSize: 24,
            fontWeight: 700,
            color: '#ffffff',
            highlightColor: '#ff6b35',
            backgroundColor: '#000000aa',
            wordsPerLine: 3,
            position: { x: 40, y: 280 },
            start: 0,
            duration: 3,
          },
          {
            id: 'code',
            type: 'text',
            text: 'renderMovie()',
            font: 'Source Code Pro',
            fontSize: 22,
            position: { x: 20, y: 20 },
            duration: 1,
          },
        ],
      },
    ],
  };
}

const out = async (name: string, doc: unknown) => writeFileSync(join(here, name), `${JSON.stringify(doc, null, 2)}\n`);
await out('hello.json', await hello());
await out('bench-60s.json', await bench60());
await out('every-field.json', await everyField());
// A draft: half size and watermarked, set in the document itself.
await out('draft.json', { ...(await hello()), draft: true });
