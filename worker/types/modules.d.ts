// headless-gl ships no types; this is the part of its surface we use.
declare module 'gl' {
  interface StackGLExtension {
    destroy(): void;
    resize(width: number, height: number): void;
  }
  function createContext(
    width: number,
    height: number,
    options?: { preserveDrawingBuffer?: boolean; antialias?: boolean; alpha?: boolean; premultipliedAlpha?: boolean },
  ): HeadlessGL | null;
  interface HeadlessGL {
    getExtension(name: 'STACKGL_destroy_context'): StackGLExtension | null;
    finish(): void;
  }
  export default createContext;
}

declare module 'color-name' {
  const names: Record<string, [number, number, number]>;
  export default names;
}

declare module '@echogarden/espeak-ng-emscripten' {
  const init: () => Promise<unknown>;
  export default init;
}

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
