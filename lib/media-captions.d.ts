// media-captions ships types whose extensionless re-exports NodeNext cannot follow: what we use of it.
declare module 'media-captions' {
  export class ParseError extends Error {
    readonly code: number;
    /** 1-based line of the file. */
    readonly line: number;
  }
  export interface ParsedCue {
    startTime: number;
    endTime: number;
    text: string;
  }
  export function parseText(
    text: string,
    options?: { type?: 'vtt' | 'srt' | 'ssa' | 'ass'; strict?: boolean },
  ): Promise<{ cues: ParsedCue[]; errors: ParseError[] }>;
}
