// headless-gl's own types are written against the DOM's WebGL types, which a Node project does
// not load; this is the part of its surface we use.
declare module 'gl' {
  interface StackGLExtension {
    destroy(): void;
    resize(width: number, height: number): void;
  }
  function createContext(
    width: number,
    height: number,
    options?: {
      preserveDrawingBuffer?: boolean;
      antialias?: boolean;
      alpha?: boolean;
      premultipliedAlpha?: boolean;
      createWebGL2Context?: boolean;
    },
  ): HeadlessGL | null;
  interface HeadlessGL {
    getExtension(name: 'STACKGL_destroy_context'): StackGLExtension | null;
    finish(): void;
    /** The driver's own answer (getParameter says "ANGLE" for RENDERER and VENDOR, as browsers do). */
    _getParameterDirect(pname: number): unknown;
    readonly RENDERER: number;
    readonly VENDOR: number;
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
