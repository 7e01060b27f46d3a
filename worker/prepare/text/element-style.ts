import type { TSchema } from '@sinclair/typebox';
import { DEFAULT_SHADOW, type SubtitlesElement, type TextElement } from '../../../movie/index.ts';
import { SubtitlesElement as SubtitlesSchema, TextElement as TextSchema } from '../../../movie/v1/schema.ts';
import { parseColor } from '../../plan/color.ts';
import type { UserFont } from './fonts.ts';
import type { TextStyle } from './text-raster.ts';

/**
 * A text or subtitles element's style at the output's scale `k` (a draft is drawn smaller):
 * the document's fields with their defaults, in output pixels. Text and captions share every
 * field here; only their defaults (size, weight, box width) differ.
 */
/** A field's default, read from the element's schema (where the documentation reads it too). */
function schemaDefault<T>(el: TextElement | SubtitlesElement, field: string): T {
  const schema = (el.type === 'text' ? TextSchema : SubtitlesSchema) as unknown as {
    properties: Record<string, TSchema>;
  };
  const value = schema.properties[field]?.default as T | undefined;
  if (value === undefined) throw new Error(`no default for ${el.type}.${field} in the schema`);
  return value;
}

export function textStyleOf(
  el: TextElement | SubtitlesElement,
  k: number,
  frameWidth: number,
  font: string | UserFont,
): TextStyle {
  const isText = el.type === 'text';
  const fontSize = (el.fontSize ?? schemaDefault<number>(el, 'fontSize')) * k;
  const shadow = el.shadow;
  const bgColor = el.background?.color ?? (el.type === 'subtitles' ? el.backgroundColor : undefined);
  return {
    font,
    weight: el.fontWeight ?? schemaDefault<number>(el, 'fontWeight'),
    fontSize,
    lineHeight: el.lineHeight ?? schemaDefault<number>(el, 'lineHeight'),
    letterSpacing: (el.letterSpacing ?? 0) * k,
    align: el.align ?? schemaDefault<TextStyle['align']>(el, 'align'),
    maxWidth: el.maxWidth !== undefined ? el.maxWidth * k : frameWidth * 0.9,
    maxHeight: isText && el.maxHeight !== undefined ? el.maxHeight * k : undefined,
    maxLines: el.maxLines ?? (isText ? undefined : schemaDefault<number>(el, 'maxLines')),
    minFontSize: isText && el.autoFit ? el.autoFit.minFontSize * k : undefined,
    lang: el.lang,
    color: parseColor(el.color ?? schemaDefault<string>(el, 'color')),
    stroke: el.stroke ? { width: el.stroke.width * k, color: parseColor(el.stroke.color) } : undefined,
    shadow: shadow
      ? {
          color: parseColor(shadow.color ?? DEFAULT_SHADOW.color),
          offsetX: (shadow.offsetX ?? DEFAULT_SHADOW.offsetX) * k,
          offsetY: (shadow.offsetY ?? DEFAULT_SHADOW.offsetY) * k,
          blur: (shadow.blur ?? DEFAULT_SHADOW.blur) * k,
        }
      : undefined,
    background: bgColor
      ? {
          color: parseColor(bgColor),
          padding: el.background?.padding !== undefined ? el.background.padding * k : undefined,
          radius: (el.background?.radius ?? 0) * k,
        }
      : undefined,
  };
}
