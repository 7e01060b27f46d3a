/** Decoded frames are yuv420p: even sizes, at least 2 pixels. */
const even = (v: number) => Math.max(2, 2 * Math.round(v / 2));

/**
 * Size of a video's frames in its box: contain scales to fit inside (the box centres it), cover
 * scales to fill and is cut to the box at the centre, fill stretches. Sizes are even (yuv420p
 * frames), so a box of odd size gets frames a pixel smaller or larger.
 */
export function fitSize(
  source: { width: number; height: number },
  boxW: number,
  boxH: number,
  fit: 'contain' | 'cover' | 'fill',
): { width: number; height: number; scaledWidth?: number; scaledHeight?: number } {
  if (fit === 'fill') return { width: even(boxW), height: even(boxH) };
  const scale =
    fit === 'contain'
      ? Math.min(boxW / source.width, boxH / source.height)
      : Math.max(boxW / source.width, boxH / source.height);
  const w = even(source.width * scale);
  const h = even(source.height * scale);
  if (fit === 'contain') return { width: Math.min(w, even(boxW)), height: Math.min(h, even(boxH)) };
  const bw = even(boxW);
  const bh = even(boxH);
  return { width: bw, height: bh, scaledWidth: Math.max(w, bw), scaledHeight: Math.max(h, bh) };
}
