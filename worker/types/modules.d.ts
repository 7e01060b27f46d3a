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
