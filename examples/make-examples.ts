/**
 * Writes the example movie documents. Images are small generated PNGs inlined as data: URIs so
 * every example renders offline. Run: `node --import tsx examples/make-examples.ts`.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { bench60Motion } from './bench-motion.ts';

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

/**
 * One scene's text in one script: its title, the five captions (one a second) and how the title
 * is styled. Each scene of bench-60s-text uses one; emoji come in two of them.
 */
const TEXT_SCENES: {
  lang?: string;
  font?: string;
  title: string;
  captions: [string, string, string, string, string];
  style: Record<string, unknown>;
}[] = [
  {
    title: 'Words on every frame',
    font: 'Montserrat',
    captions: [
      'Every scene has a title and a caption line.',
      'A new caption appears every second.',
      'Twelve scenes, eight scripts, one renderer.',
      'Text is shaped by HarfBuzz, wrapped by ICU.',
      'Nothing here is spoken: it is all text.',
    ],
    style: { shadow: {} },
  },
  {
    lang: 'fr',
    font: 'Playfair Display',
    title: 'Des sous-titres à chaque seconde',
    captions: [
      'Le texte est composé une fois par élément.',
      'Les accents et les cédilles sont bien là.',
      'Où êtes-vous allés cet été, à Noël ?',
      'Chaque légende dure exactement une seconde.',
      'Fin de la scène française, à bientôt !',
    ],
    style: { stroke: { width: 4, color: '#1a2238' } },
  },
  {
    lang: 'ru',
    font: 'Inter',
    title: 'Привет из Москвы',
    captions: [
      'Привет, как у тебя дела?',
      'Сегодня хорошая погода.',
      'Каждую секунду новая подпись.',
      'Кириллица рисуется тем же движком.',
      'До свидания и до новых встреч!',
    ],
    style: { background: { color: '#e71d36cc', padding: 24, radius: 16 } },
  },
  {
    lang: 'el',
    font: 'Roboto',
    title: 'Καλημέρα από την Αθήνα',
    captions: [
      'Καλημέρα σε όλους τους θεατές.',
      'Κάθε δευτερόλεπτο ένας νέος υπότιτλος.',
      'Η Ακρόπολη φαίνεται από παντού.',
      'Τα ελληνικά γράμματα με τόνους.',
      'Ευχαριστούμε που παρακολουθήσατε!',
    ],
    style: { shadow: { color: '#000000cc', offsetX: 6, offsetY: 6, blur: 12 }, letterSpacing: 2 },
  },
  {
    lang: 'ja',
    title: '東京の夜景とことば',
    captions: [
      'こんにちは、世界。',
      '毎秒、新しい字幕が表示されます。',
      'ひらがな、カタカナ、漢字を混ぜて。',
      '日本語は文字の間で改行できます。',
      'ご覧いただきありがとうございました。',
    ],
    style: { stroke: { width: 6, color: '#000000' }, shadow: {} },
  },
  {
    lang: 'zh-CN',
    title: '北京欢迎你',
    captions: [
      '你好，世界。',
      '每一秒都会出现新的字幕。',
      '中文字幕使用简体字显示。',
      '长城和故宫都非常有名。',
      '谢谢观看，我们下次再见。',
    ],
    style: { background: { color: '#0b3d2ee6', padding: 30, radius: 24 } },
  },
  {
    lang: 'ko',
    title: '서울에서 안녕하세요',
    captions: [
      '안녕하세요, 반갑습니다.',
      '매초 새로운 자막이 나타납니다.',
      '한글은 아름다운 문자입니다.',
      '오늘 날씨가 정말 좋네요.',
      '시청해 주셔서 감사합니다.',
    ],
    style: { shadow: { blur: 0, offsetX: 4, offsetY: 4, color: '#000000' } },
  },
  {
    lang: 'ar',
    title: 'مرحبا بكم في القاهرة',
    captions: [
      'مرحبا بالعالم.',
      'في كل ثانية يظهر سطر جديد.',
      'الكتابة العربية من اليمين إلى اليسار.',
      'الطقس جميل اليوم في المدينة.',
      'شكرا على المشاهدة.',
    ],
    style: { background: { color: '#000000b3', padding: 28, radius: 12 }, stroke: { width: 2, color: '#ffbf69' } },
  },
  {
    lang: 'hi',
    title: 'भारत एक विशाल देश है',
    captions: [
      'नमस्ते, आप कैसे हैं?',
      'हर सेकंड एक नया कैप्शन आता है।',
      'देवनागरी लिपि में लिखा गया पाठ।',
      'आज मौसम बहुत अच्छा है।',
      'देखने के लिए धन्यवाद।',
    ],
    style: { shadow: {} },
  },
  {
    font: 'Oswald',
    title: 'Launch day 🚀 ready, set, go 🎉',
    captions: [
      'Coffee first ☕ then the demo.',
      'Builds are green ✅ tests pass.',
      'Ship it 🚢 and watch the graphs 📈',
      'Questions? Ask away 🙋',
      'Thanks for watching 👋',
    ],
    style: { stroke: { width: 3, color: '#6a4c93' }, shadow: {} },
  },
  {
    lang: 'vi',
    font: 'Noto Sans',
    title: 'Xin chào Việt Nam, đất nước của những dòng sông dài và những cánh đồng lúa xanh',
    captions: [
      'Xin chào, bạn có khỏe không?',
      'Mỗi giây lại có một dòng phụ đề mới.',
      'Tiếng Việt có rất nhiều dấu thanh.',
      'Hôm nay trời đẹp quá.',
      'Cảm ơn các bạn đã xem.',
    ],
    style: { maxWidth: 1000, maxHeight: 240, autoFit: { minFontSize: 48 }, letterSpacing: 1 },
  },
  {
    title: 'One movie, many scripts: Привет · Γεια · こんにちは · 你好 · 안녕 · مرحبا · नमस्ते 🌍',
    captions: [
      'Mixed scripts in one line: Ελλάδα, Россия, 日本.',
      'Right to left inside left to right: مرحبا world.',
      'Emoji beside Han: 你好 😀 and 안녕 🙂',
      'Devanagari and Latin: नमस्ते means hello.',
      'The end of the text-heavy benchmark. 🎬',
    ],
    style: { maxWidth: 1000, maxLines: 2, background: { color: '#14213dcc', padding: 20, radius: 20 } },
  },
];

/**
 * 60 s at 1080p30, text-heavy: twelve 5-second scenes, each in one script (Latin, Cyrillic,
 * Greek, Japanese, Chinese, Korean, Arabic, Devanagari, emoji, mixed), with bench-60s's scene
 * colours and images, an animated title (stroke, shadow, box, letterSpacing, autoFit, maxLines by
 * scene) and a caption line every second (a text element of one second in a box at the bottom).
 * No voice: the comparison with bench-60s is about text.
 */
async function bench60Text() {
  const scenes = [];
  for (const [i, t] of TEXT_SCENES.entries()) {
    const lang = t.lang ? { lang: t.lang } : {};
    scenes.push({
      id: `scene-${i + 1}`,
      duration: 5,
      background: BACKGROUNDS[i % BACKGROUNDS.length],
      elements: [
        {
          id: `image-${i + 1}`,
          type: 'image',
          src: await png(shape(i), 400),
          width: 400,
          height: 400,
          position: { x: 140, y: 240 },
          animation: { preset: i % 2 === 0 ? 'zoom-in' : 'slide-in-up', duration: 0.8 },
        },
        {
          id: `title-${i + 1}`,
          type: 'text',
          text: t.title,
          ...(t.font ? { font: t.font } : {}),
          fontSize: 80,
          fontWeight: 700,
          color: '#ffffff',
          align: 'left',
          maxWidth: 1100,
          position: { x: 660, y: 300 },
          animation: { preset: i % 2 === 0 ? 'slide-in-up' : 'zoom-in', duration: 0.8 },
          ...lang,
          ...t.style,
        },
        ...t.captions.map((text, c) => ({
          id: `caption-${i + 1}-${c + 1}`,
          type: 'text',
          text,
          ...(t.font ? { font: t.font } : {}),
          fontSize: 48,
          color: c % 2 === 0 ? '#ffffff' : '#ffd400',
          align: 'left',
          maxWidth: 1680,
          maxLines: 1,
          position: { x: 120, y: 920 },
          start: c,
          duration: 1,
          background: { color: '#000000a6', padding: 16, radius: 8 },
          ...lang,
        })),
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
    loudness: { target: -16, truePeak: -1.5 },
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
        // Shapes of every kind, keyframe tracks with each kind of easing, entry and exit presets,
        // a text reveal, and the picture effects.
        id: 'graphics',
        duration: 3,
        background: '#1b1b2f',
        transition: { type: 'crossfade', duration: 0.5 },
        elements: [
          {
            id: 'rectangle',
            type: 'shape',
            shape: 'rectangle',
            width: 140,
            height: 90,
            position: { x: 20, y: 20 },
            cornerRadius: 16,
            fill: {
              type: 'linear',
              angle: 90,
              stops: [
                { offset: 0, color: '#ff6b35' },
                { offset: 1, color: '#2ec4b6' },
              ],
            },
            stroke: { width: 4, color: '#ffffff', dash: [8, 4] },
            animate: {
              x: [
                { time: 0, value: 20, easing: 'cubic-bezier(0.4, 0, 0.2, 1)' },
                { time: '50%', value: 120 },
              ],
              rotation: [
                { time: 0, value: 0, easing: 'spring(1, 120, 12)' },
                { time: 1, value: 30 },
              ],
            },
          },
          {
            id: 'ellipse',
            type: 'shape',
            shape: 'ellipse',
            width: 100,
            height: 100,
            position: { x: 200, y: 20 },
            fill: {
              type: 'radial',
              stops: [
                { offset: 0, color: '#ffd400' },
                { offset: 1, color: '#ffd40000' },
              ],
            },
            animation: { in: { preset: 'zoom', duration: 0.4 }, out: { preset: 'fade', easing: 'ease-in' } },
            animate: {
              opacity: [
                { time: 0, value: 0.5, easing: 'steps(4, jump-end)' },
                { time: 2, value: 1 },
              ],
            },
          },
          {
            id: 'line',
            type: 'shape',
            shape: 'line',
            width: 120,
            height: 60,
            position: { x: 340, y: 30 },
            from: { x: 0, y: 0 },
            to: { x: 120, y: 60 },
            stroke: { width: 3, color: '#e71d36' },
            animate: {
              scaleX: [
                { time: 0, value: 0.5, easing: 'ease-in-out' },
                { time: 1.5, value: 1 },
              ],
              scaleY: [{ time: 0, value: 1 }],
            },
          },
          {
            id: 'polygon',
            type: 'shape',
            shape: 'polygon',
            width: 90,
            height: 90,
            position: { x: 500, y: 20 },
            points: [
              { x: 45, y: 0 },
              { x: 90, y: 90 },
              { x: 0, y: 90 },
            ],
            fill: '#8ac926',
            animate: {
              crop: [
                { time: 0, value: { x: 0, y: 0, width: 45, height: 90 }, easing: 'linear' },
                { time: 1, value: { x: 0, y: 0, width: 90, height: 90 } },
              ],
            },
          },
          {
            id: 'path',
            type: 'shape',
            shape: 'path',
            width: 100,
            height: 100,
            position: { x: 20, y: 150 },
            d: 'M 50 0 L 61 35 L 100 35 L 69 57 L 80 95 L 50 72 L 20 95 L 31 57 L 0 35 L 39 35 Z',
            fill: '#ffbf69',
            animate: {
              y: [
                { time: 0, value: 150, easing: 'ease' },
                { time: 2, value: 200 },
              ],
              scale: [{ time: 0, value: 1 }],
            },
          },
          {
            id: 'picture-effects',
            type: 'image',
            src: await png(shape(2), 120),
            width: 200,
            height: 120,
            fit: 'contain',
            position: { x: 160, y: 150 },
            background: { blur: 20, brightness: 0.6 },
            blur: 1,
            cornerRadius: 12,
            border: { width: 3, color: '#ffffff' },
            filters: { brightness: 1.1, contrast: 1.2, saturation: 0.8, grayscale: 0.1 },
            opacity: 0.9,
          },
          {
            id: 'reveal',
            type: 'text',
            text: 'Word by word',
            fontSize: 28,
            position: { x: 400, y: 200 },
            textAnimation: { unit: 'word', style: 'rise', stagger: 0.2, duration: 0.4, easing: 'ease-out' },
          },
          {
            id: 'letters',
            type: 'text',
            text: 'Letter by letter',
            fontSize: 20,
            position: { x: 400, y: 260 },
            textAnimation: { unit: 'letter', style: 'typewriter', stagger: 0.05 },
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
            style: 'pop',
            position: { x: 40, y: 280 },
            start: 0,
            duration: 3,
          },
          {
            id: 'captions-file',
            type: 'subtitles',
            src: `data:text/vtt;base64,${Buffer.from('WEBVTT\n\n00:00.500 --> 00:02.000\nCaptions from a <i>WebVTT</i> file\n').toString('base64')}`,
            fontSize: 18,
            position: { x: 40, y: 20 },
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
await out('bench-60s-text.json', await bench60Text());
await out('bench-60s-motion.json', await bench60Motion());
await out('every-field.json', await everyField());
// A draft: half size and watermarked, set in the document itself.
await out('draft.json', { ...(await hello()), draft: true });
