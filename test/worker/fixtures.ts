import sharp from 'sharp';

/** A solid PNG as a data: URI. */
export async function solidPng(color: string, size = 32): Promise<string> {
  const bytes = await sharp({ create: { width: size, height: size, channels: 4, background: color } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${bytes.toString('base64')}`;
}

export async function solidPngBytes(color: string, size = 32): Promise<Buffer> {
  return sharp({ create: { width: size, height: size, channels: 4, background: color } })
    .png()
    .toBuffer();
}

/**
 * Two one-second scenes at 320x180, 25 fps: a red image and white text on blue, then a blue
 * image sliding in from the left on green. Positions are chosen for pixel checks.
 */
export async function silentMovie(): Promise<Record<string, unknown>> {
  return {
    schema: 'v1',
    width: 320,
    height: 180,
    fps: 25,
    scenes: [
      {
        id: 'first',
        duration: 1,
        background: '#204080',
        elements: [
          {
            id: 'red',
            type: 'image',
            src: await solidPng('#ff0000'),
            width: 64,
            height: 64,
            position: { x: 20, y: 20 },
          },
          {
            id: 'hi',
            type: 'text',
            text: 'HI',
            fontSize: 40,
            fontWeight: 900,
            color: '#ffffff',
            position: { x: 200, y: 100 },
          },
        ],
      },
      {
        id: 'second',
        duration: 1,
        background: '#008000',
        elements: [
          {
            id: 'blue',
            type: 'image',
            src: await solidPng('#0000ff'),
            width: 64,
            height: 64,
            position: { x: 128, y: 58 },
            animation: { preset: 'slide-in-left', duration: 0.5 },
          },
        ],
      },
    ],
  };
}
