import sharp from 'sharp';

/**
 * 100 s at 160x90 and 10 fps: 10 encoder chunks of 10 s, cut into 4 segments at 20, 50 and 70 s.
 * Each border is crossed by a voice with its subtitles; the second by a crossfade as well.
 */
export async function longMovie(extra: Record<string, unknown>[] = []) {
  const voice = (id: string, start: number, text: string) => [
    { id, type: 'voice', text, voiceId: 'espeak-en-us', start },
    {
      id: `${id}-subs`,
      type: 'subtitles',
      fontSize: 12,
      color: '#ffffff',
      highlightColor: '#ffd000',
      wordsPerLine: 3,
    },
  ];
  const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#ff8000' } })
    .png()
    .toBuffer();
  return {
    schema: 'v1',
    width: 160,
    height: 90,
    fps: 10,
    scenes: [
      {
        id: 'one',
        duration: 30,
        background: '#203040',
        elements: [
          {
            id: 'title',
            type: 'text',
            text: 'One',
            fontSize: 16,
            color: '#ffffff',
            animation: { preset: 'zoom-in', duration: 3 },
          },
          ...voice('v1', 17, 'This sentence is spoken across the first border between two segments of the movie.'),
        ],
      },
      {
        id: 'two',
        duration: 35,
        background: '#604020',
        transition: { type: 'crossfade', duration: 1 },
        elements: voice('v2', 19, 'And this one crosses the second border, a little after the crossfade ends.'),
      },
      {
        id: 'three',
        duration: 36,
        background: '#103010',
        elements: [
          { id: 'img', type: 'image', src: `data:image/png;base64,${png.toString('base64')}`, width: 20, height: 20 },
          ...voice('v3', 4.5, 'The third voice is heard over the last border, where the final segment starts.'),
          ...extra,
        ],
      },
    ],
  };
}
