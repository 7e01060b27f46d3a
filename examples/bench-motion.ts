/**
 * examples/bench-60s-motion.json: a 60 s 1080p30 motion-graphics movie for `make bench-render`
 * (bench/render.ts): six 10 s scenes, each with a title revealed letter by letter and a line of
 * text word by word, fourteen vector shapes, half entering one after another, half moving on
 * keyframes (position, rotation, scale, with eased and spring curves) the whole scene, and
 * picture effects: a blurred picture, rounded corners with a border and colour
 * filters, a contained picture over its blurred background, and a chroma-keyed green-screen clip
 * (in three scenes; its `src` is a placeholder the bench points at a clip it makes with ffmpeg).
 * No voice and no sound: the comparison with bench-60s is about drawing.
 *
 * Written by examples/make-examples.ts (`node --import tsx examples/make-examples.ts`).
 */
import sharp from 'sharp';

/** The keyed clip's placeholder address; bench/motion.ts replaces it. */
export const KEYED_CLIP_PLACEHOLDER = 'http://127.0.0.1/green-screen.mp4';

const COLOURS = ['#ff6b35', '#2ec4b6', '#e71d36', '#ffbf69', '#6a4c93', '#1982c4', '#8ac926'];
const BACKGROUNDS = ['#101828', '#0b3d2e', '#2b193d', '#3d2b1f', '#14213d', '#1e1e1e'];
const TITLES = ['Blur', 'Corners and borders', 'Green screen', 'Keyed over motion', 'Blurred fill', 'Filters'];

/** A 512x512 picture with detail (rings and stripes) as a data: URI. */
async function picture(hue: string): Promise<string> {
  const rings = Array.from(
    { length: 8 },
    (_, i) =>
      `<circle cx="256" cy="256" r="${240 - i * 28}" fill="${i % 2 ? '#ffffff' : hue}" fill-opacity="${1 - i * 0.08}"/>`,
  ).join('');
  const stripes = Array.from(
    { length: 16 },
    (_, i) => `<rect x="${i * 32}" y="0" width="12" height="512" fill="#000000" fill-opacity="0.25"/>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512"><rect width="512" height="512" fill="#202020"/>${rings}${stripes}</svg>`;
  const bytes = await sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer();
  return `data:image/png;base64,${bytes.toString('base64')}`;
}

const SHAPE_PRESETS = ['zoom-in', 'slide-in-up', 'fade-in', 'slide-in-right'] as const;
const EASINGS = ['ease-in-out', 'spring(1, 120, 12)', 'cubic-bezier(0.3, -0.4, 0.7, 1.4)'] as const;

/**
 * Fourteen shapes on a grid right of centre: even ones enter one after another (presets), odd
 * ones move on keyframes the whole scene (a bob up and back, a turn, a pulse of scale).
 */
function shapes(scene: number): Record<string, unknown>[] {
  return Array.from({ length: 14 }, (_, k) => {
    const size = 150 + ((k * 37) % 110);
    const col = k % 5;
    const row = Math.floor(k / 5);
    const base = {
      id: `s${scene}-shape-${k}`,
      type: 'shape',
      width: size,
      height: size,
      position: { x: 980 + col * 180, y: 300 + row * 250 },
    };
    const colour = COLOURS[(k + scene) % COLOURS.length]!;
    const look = [
      { shape: 'rectangle', cornerRadius: 28, fill: colour },
      {
        shape: 'ellipse',
        fill: {
          type: 'linear',
          angle: 45,
          stops: [
            { offset: 0, color: colour },
            { offset: 1, color: '#ffffff' },
          ],
        },
      },
      {
        shape: 'polygon',
        points: [
          { x: size / 2, y: 0 },
          { x: size, y: size },
          { x: 0, y: size },
        ],
        fill: colour,
        stroke: { width: 6, color: '#ffffff' },
      },
      {
        shape: 'path',
        d: `M ${size / 2} 0 L ${size * 0.62} ${size * 0.38} L ${size} ${size * 0.38} L ${size * 0.69} ${size * 0.6} L ${size * 0.8} ${size} L ${size / 2} ${size * 0.75} L ${size * 0.2} ${size} L ${size * 0.31} ${size * 0.6} L 0 ${size * 0.38} L ${size * 0.38} ${size * 0.38} Z`,
        fill: colour,
      },
    ][k % 4]!;
    const y = base.position.y;
    const easing = EASINGS[(k >> 1) % EASINGS.length];
    const timing =
      k % 2 === 0
        ? { start: 0.4 + k * 0.6, animation: { preset: SHAPE_PRESETS[(k / 2) % SHAPE_PRESETS.length], duration: 0.8 } }
        : {
            animate: {
              y: [
                { time: 0, value: y, easing },
                { time: '50%', value: y - 80, easing },
                { time: '100%', value: y },
              ],
              rotation: [
                { time: 0, value: 0, easing: 'ease-in-out' },
                { time: '100%', value: 90 * ((k % 3) + 1) },
              ],
              scale: [
                { time: 2, value: 1, easing },
                { time: 3, value: 1.25, easing: 'ease-out' },
                { time: 4, value: 1 },
              ],
            },
          };
    return { ...base, ...look, ...timing };
  });
}

export async function bench60Motion(): Promise<Record<string, unknown>> {
  const pictures = await Promise.all(COLOURS.slice(0, 3).map(picture));
  const keyed = (scene: number, more: Record<string, unknown> = {}) => ({
    id: `s${scene}-keyed`,
    type: 'video',
    src: KEYED_CLIP_PLACEHOLDER,
    width: 640,
    height: 360,
    position: { x: 80, y: 620 },
    loop: true,
    muted: true,
    chromaKey: { color: '#00ff00', similarity: 0.12, smoothness: 0.08 },
    ...more,
  });
  const effects: Record<string, unknown>[][] = [
    [
      {
        id: 's0-blurred',
        type: 'image',
        src: pictures[0],
        width: 480,
        height: 480,
        position: { x: 120, y: 420 },
        blur: 24,
        animation: { preset: 'fade-in', duration: 1 },
      },
    ],
    [
      {
        id: 's1-rounded',
        type: 'image',
        src: pictures[1],
        width: 480,
        height: 480,
        position: { x: 120, y: 420 },
        cornerRadius: 48,
        border: { width: 8, color: '#ffffff' },
        filters: { saturation: 1.5, contrast: 1.2 },
        animation: { preset: 'zoom-in', duration: 1 },
      },
    ],
    [keyed(2)],
    [
      {
        id: 's3-backdrop',
        type: 'image',
        src: pictures[2],
        width: 640,
        height: 360,
        position: { x: 80, y: 620 },
        fit: 'cover',
        blur: 6,
        filters: { brightness: 0.7 },
      },
      keyed(3, { cornerRadius: 24 }),
    ],
    [
      {
        id: 's4-contained',
        type: 'image',
        src: pictures[0],
        width: 800,
        height: 540,
        position: { x: 80, y: 400 },
        fit: 'contain',
        background: { blur: 40, brightness: 0.6 },
        animation: { preset: 'slide-in-left', duration: 1 },
      },
    ],
    [
      {
        id: 's5-grey',
        type: 'image',
        src: pictures[1],
        width: 420,
        height: 420,
        position: { x: 120, y: 420 },
        filters: { grayscale: 1, contrast: 1.3 },
        opacity: 0.85,
      },
      keyed(5, { position: { x: 560, y: 640 }, filters: { brightness: 1.1 } }),
    ],
  ];
  return {
    schema: 'v1',
    preset: '16:9',
    resolution: '1080p',
    fps: 30,
    scenes: TITLES.map((title, i) => ({
      id: `scene-${i + 1}`,
      duration: 10,
      background: BACKGROUNDS[i],
      elements: [
        ...effects[i]!,
        ...shapes(i),
        {
          id: `s${i}-title`,
          type: 'text',
          text: title,
          fontSize: 96,
          fontWeight: 700,
          position: { x: 120, y: 90 },
          textAnimation: { unit: 'letter', style: 'rise', stagger: 0.05, duration: 0.4, easing: 'ease-out' },
        },
        {
          id: `s${i}-line`,
          type: 'text',
          text: `Scene ${i + 1} of 6: shapes, text and picture effects`,
          fontSize: 44,
          color: '#d0d0d0',
          position: { x: 120, y: 230 },
          start: 0.6,
          textAnimation: { unit: 'word', style: 'fade', stagger: 0.12, duration: 0.5 },
        },
      ],
    })),
  };
}
