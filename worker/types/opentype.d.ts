// opentype.js 2 ships no types; this is the part of its surface we use.
declare module 'opentype.js' {
  export interface PathCommand {
    type: 'M' | 'L' | 'C' | 'Q' | 'Z';
    x?: number;
    y?: number;
    x1?: number;
    y1?: number;
    x2?: number;
    y2?: number;
  }
  export interface Path {
    commands: PathCommand[];
    toPathData(decimalPlaces?: number): string;
  }
  export interface Glyph {
    index: number;
    advanceWidth?: number;
    getPath(x: number, y: number, fontSize: number): Path;
  }
  export interface Font {
    charToGlyph(char: string): Glyph;
    getKerningValue(left: Glyph, right: Glyph): number;
    position?: {
      getKerningTables(script: string, language?: string): unknown;
      getKerningValue(tables: unknown, left: number, right: number): number;
    };
    unitsPerEm: number;
    ascender: number;
    descender: number;
    getPath(
      text: string,
      x: number,
      y: number,
      fontSize: number,
      options?: { kerning?: boolean; features?: Record<string, boolean> },
    ): Path;
    charToGlyphIndex(char: string): number;
    getAdvanceWidth(
      text: string,
      fontSize: number,
      options?: { kerning?: boolean; features?: Record<string, boolean> },
    ): number;
  }
  export function parse(buffer: ArrayBuffer): Font;
  const opentype: { parse: typeof parse };
  export default opentype;
}
