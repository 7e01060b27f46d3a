import colorNames from 'color-name';

export type Rgba = [number, number, number, number];

/**
 * A document colour (#rgb, #rrggbb, #rrggbbaa or a CSS name; validated by movie/) as 0..255 RGBA.
 * Throws on anything else, which validation has already ruled out.
 */
export function parseColor(value: string): Rgba {
  if (value === 'transparent') return [0, 0, 0, 0];
  const named = (colorNames as Record<string, [number, number, number] | undefined>)[value];
  if (named) return [named[0], named[1], named[2], 255];
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(value)?.[1];
  if (!hex) throw new RangeError(`Not a colour: ${JSON.stringify(value)}`);
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  const n = (i: number) => Number.parseInt(full.slice(i, i + 2), 16);
  return [n(0), n(2), n(4), full.length === 8 ? n(6) : 255];
}
