/**
 * docs/images/text-scripts.png: one frame per script of the voice catalogue, rendered by the real
 * pipeline (renderMovie, libx264) and decoded back from the MP4, so the picture in docs/movie.md is
 * what a render shows. `node --import tsx scripts/docs-text-frames.ts` (about half a minute).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { validateMovie } from '../movie/index.ts';
import { frameRgb } from '../test/worker/media.ts';
import { renderMovie } from '../worker/run/render-movie.ts';

const W = 640;
const H = 180;
const FPS = 10;
const scripts: [string, string, Record<string, unknown>][] = [
  ['Latin, accents', 'Café déjà vu — naïve façade', { font: 'Playfair Display', fontWeight: 700 }],
  ['Cyrillic, Greek', 'Привет, мир · Γειά σου κόσμε', {}],
  ['Vietnamese', 'Tiếng Việt rất đẹp', { font: 'Montserrat' }],
  ['Japanese', '日本語のテキストは、改行もできます。', { lang: 'ja', maxWidth: 420 }],
  ['Simplified Chinese', '今天天气很好，我们去公园。', {}],
  ['Korean', '오늘 날씨가 정말 좋아요', { fontWeight: 700 }],
  ['Arabic (right to left)', 'اللغة العربية جميلة', { fontSize: 56 }],
  ['Devanagari', 'भारत एक विशाल देश है', {}],
  [
    'Emoji, stroke, shadow, box',
    'Launch day 🚀🎉',
    {
      color: '#ffffff',
      stroke: { width: 4, color: '#1b1b3a' },
      shadow: { offsetY: 4, blur: 6 },
      background: { color: '#3d5afe', radius: 18 },
    },
  ],
];

const dir = mkdtempSync(join(tmpdir(), 'fw-docs-text-'));
try {
  const movie = validateMovie({
    schema: 'v1',
    width: W,
    height: H,
    fps: FPS,
    scenes: scripts.map(([, text, style], i) => ({
      id: `s${i}`,
      duration: 0.5,
      background: '#fafafa',
      elements: [{ id: `t${i}`, type: 'text', text, fontSize: 44, color: '#202020', ...style }],
    })),
  });
  if (!movie.ok) throw new Error(JSON.stringify(movie.findings));
  const out = join(dir, 'scripts.mp4');
  await renderMovie({
    movie: movie.value,
    output: out,
    config: { ffmpegPath: 'ffmpeg', allowPrivateUrls: false, env: process.env },
  });
  const cols = 3;
  const tiles = await Promise.all(
    scripts.map(async ([label], i) => {
      const rgb = await frameRgb(out, i * 5 + 2);
      const caption = Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="26"><rect width="100%" height="100%" fill="#e8e8e8"/><text x="10" y="18" font-family="DejaVu Sans" font-size="14" fill="#333">${label}</text></svg>`,
      );
      const frame = await sharp(rgb, { raw: { width: W, height: H, channels: 3 } })
        .png()
        .toBuffer();
      return { frame, caption, left: (i % cols) * W, top: Math.floor(i / cols) * (H + 26) };
    }),
  );
  const rows = Math.ceil(scripts.length / cols);
  await sharp({ create: { width: cols * W, height: rows * (H + 26), channels: 3, background: '#ffffff' } })
    .composite(
      tiles.flatMap((t) => [
        { input: t.caption, left: t.left, top: t.top },
        { input: t.frame, left: t.left, top: t.top + 26 },
      ]),
    )
    .png({ compressionLevel: 9, palette: true })
    .toFile(join(import.meta.dirname, '..', 'docs', 'images', 'text-scripts.png'));
  console.log('wrote docs/images/text-scripts.png');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
