/**
 * Size of a video's frames in its box: contain scales to fit inside (the box centres it), cover
 * scales to fill and is cut to the box at the centre, fill stretches. At least 1 pixel each way.
 */
export function fitSize(
  source: { width: number; height: number },
  boxW: number,
  boxH: number,
  fit: 'contain' | 'cover' | 'fill',
): { width: number; height: number; scaledWidth?: number; scaledHeight?: number } {
  if (fit === 'fill') return { width: boxW, height: boxH };
  const scale =
    fit === 'contain'
      ? Math.min(boxW / source.width, boxH / source.height)
      : Math.max(boxW / source.width, boxH / source.height);
  const w = Math.max(1, Math.round(source.width * scale));
  const h = Math.max(1, Math.round(source.height * scale));
  if (fit === 'contain') return { width: Math.min(w, boxW), height: Math.min(h, boxH) };
  return { width: boxW, height: boxH, scaledWidth: Math.max(w, boxW), scaledHeight: Math.max(h, boxH) };
}
