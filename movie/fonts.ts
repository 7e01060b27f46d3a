/** Font families bundled through the @fontsource packages, so text renders offline. */
export const FONT_FAMILIES = [
  'Inter',
  'Roboto',
  'Open Sans',
  'Lato',
  'Montserrat',
  'Merriweather',
  'Playfair Display',
  'Oswald',
  'Source Code Pro',
  'Noto Sans',
] as const satisfies readonly string[];

export const DEFAULT_FONT = 'Inter' as const;

const FAMILY_SET: ReadonlySet<string> = new Set(FONT_FAMILIES);
const URL_FONT = /^(https?:\/\/[^\s]+|data:[a-z]+\/[a-z0-9.+-]+;base64,[A-Za-z0-9+/=]+)$/;

/** Why `value` is not a usable font (undefined when it is): a bundled family or a font URL. */
export function fontProblem(value: string): string | undefined {
  if (FAMILY_SET.has(value)) return undefined;
  if (/^(https?:|data:)/i.test(value)) {
    if (URL_FONT.test(value) && (!value.startsWith('http') || URL.canParse(value))) return undefined;
    return `must be an absolute http(s) URL or a base64 data: URI of a TTF/OTF/WOFF/WOFF2 file; got ${JSON.stringify(value.slice(0, 80))}`;
  }
  const lower = value.toLowerCase();
  const near = FONT_FAMILIES.find((f) => f.toLowerCase() === lower);
  const hint = near ? ` (did you mean "${near}"?)` : '';
  return `"${value.slice(0, 80)}" is not available${hint}; use one of ${FONT_FAMILIES.join(', ')} or an http(s)/data: URL of a TTF/OTF/WOFF/WOFF2 file`;
}
