/**
 * Geometry of the GPU YUV pass. The final shader writes the yuv420p byte stream (Y plane, then U,
 * then V, no padding) into an RGBA8 target, four bytes per texel, row after row, so one
 * readPixels gives ffmpeg its rawvideo frame: 1.5 bytes per pixel instead of 4.
 */
export interface YuvLayout {
  width: number;
  height: number;
  /** Bytes of one yuv420p frame: width * height * 3 / 2. */
  frameBytes: number;
  /** Size of the RGBA target holding those bytes (may have a few spare bytes at the end). */
  targetWidth: number;
  targetHeight: number;
  /**
   * Width a multiple of 8 and height of 4: every target row then holds whole plane rows, so the
   * fast shader needs no per-byte index maths (the common sizes: 1920x1080, 1280x720, 960x540).
   */
  aligned: boolean;
}

export function yuvLayout(width: number, height: number): YuvLayout {
  if (width % 2 !== 0 || height % 2 !== 0) {
    throw new RangeError(`yuv420p needs even dimensions. Passed: ${width}x${height}`);
  }
  const frameBytes = (width * height * 3) / 2;
  const aligned = width % 8 === 0 && height % 4 === 0;
  const targetWidth = width % 4 === 0 ? width / 4 : width / 2;
  const targetHeight = Math.ceil(frameBytes / 4 / targetWidth);
  return { width, height, frameBytes, targetWidth, targetHeight, aligned };
}

/**
 * BT.709 limited range, the matrix players assume for HD and what we tag the stream with.
 * Shared with the tests so expected colours come from the same numbers.
 */
export function rgbToYuv709(r: number, g: number, b: number): [number, number, number] {
  const [R, G, B] = [r / 255, g / 255, b / 255];
  const y = 0.2126 * R + 0.7152 * G + 0.0722 * B;
  const u = (B - y) / 1.8556;
  const v = (R - y) / 1.5748;
  return [Math.round(16 + 219 * y), Math.round(128 + 224 * u), Math.round(128 + 224 * v)];
}

/** GLSL ES 1.00 fragment shader of the pass; `src` is the scene target, row 0 = top of the image. */
export const YUV_FRAGMENT_SHADER = /* glsl */ `
precision highp float;
uniform sampler2D src;
uniform vec2 size;
uniform float targetWidth;

const vec3 KY = vec3(0.2126, 0.7152, 0.0722);

vec3 rgbAt(vec2 pixelCenter) {
  // The scene is drawn with y pointing down, so image row r lives at v = 1 - (r + 0.5) / H:
  // the flip costs nothing here and nothing in ffmpeg.
  return texture2D(src, vec2(pixelCenter.x / size.x, 1.0 - pixelCenter.y / size.y)).rgb;
}

// Splits a linear index into (column, row) of a plane 'w' wide; fixes float rounding at row ends.
vec2 colRow(float index, float w) {
  float row = floor(index / w);
  float col = index - row * w;
  if (col < 0.0) { row -= 1.0; col += w; }
  if (col >= w) { row += 1.0; col -= w; }
  return vec2(col, row);
}

float byteAt(float b) {
  float lumaBytes = size.x * size.y;
  float chromaW = size.x * 0.5;
  float chromaBytes = lumaBytes * 0.25;
  if (b < lumaBytes) {
    vec2 cr = colRow(b, size.x);
    float y = dot(rgbAt(cr + 0.5), KY);
    return (16.0 + 219.0 * y) / 255.0;
  }
  float c = b - lumaBytes;
  bool isV = c >= chromaBytes;
  if (isV) c -= chromaBytes;
  if (c >= chromaBytes) return 0.0;
  vec2 cr = colRow(c, chromaW);
  vec3 rgb = rgbAt(cr * 2.0 + 0.5);
  float y = dot(rgb, KY);
  float d = isV ? (rgb.r - y) / 1.5748 : (rgb.b - y) / 1.8556;
  return (128.0 + 224.0 * d) / 255.0;
}

void main() {
  vec2 p = floor(gl_FragCoord.xy);
  float base = (p.y * targetWidth + p.x) * 4.0;
  gl_FragColor = vec4(byteAt(base), byteAt(base + 1.0), byteAt(base + 2.0), byteAt(base + 3.0));
}
`;

/**
 * One rectangle of the aligned layout and the affine map from its target pixels to source pixels:
 * source x of the k-th byte = ax * tx + bx + k * step, source y = ay * ty + by (pixel centres).
 */
export interface YuvRegion {
  plane: 'y' | 'u' | 'v';
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  ax: number;
  bx: number;
  step: number;
  ay: number;
  by: number;
}

/**
 * The five rectangles of an aligned layout: the luma plane (one target row per image row, four
 * pixels per texel), then U and V, each as a left half (even chroma rows) and a right half (odd
 * chroma rows) of a quarter as many target rows. Chroma is point-sampled at each 2x2 block's
 * top-left pixel: nearest filtering is markedly cheaper than bilinear on llvmpipe, and flat
 * graphics lose nothing visible.
 */
export function yuvRegions(l: YuvLayout): YuvRegion[] {
  const { width: W, height: H, targetWidth: TW } = l;
  const half = TW / 2;
  const regions: YuvRegion[] = [{ plane: 'y', x0: 0, y0: 0, x1: TW, y1: H, ax: 4, bx: -1.5, step: 1, ay: 1, by: 0 }];
  for (const [plane, top] of [
    ['u', H],
    ['v', H + H / 4],
  ] as const) {
    regions.push({
      plane,
      x0: 0,
      y0: top,
      x1: half,
      y1: top + H / 4,
      ax: 8,
      bx: -3.5,
      step: 2,
      ay: 4,
      by: -4 * top - 1.5,
    });
    regions.push({
      plane,
      x0: half,
      y0: top,
      x1: TW,
      y1: top + H / 4,
      ax: 8,
      bx: -8 * half - 3.5,
      step: 2,
      ay: 4,
      by: -4 * top + 0.5,
    });
  }
  void W;
  return regions;
}

const KR = 0.2126;
const KG = 0.7152;
const KB = 0.0722;

/** Weights and offset (all /255) turning an RGB sample into a Y, U or V byte. */
export function planeCoefficients(plane: 'y' | 'u' | 'v'): [number, number, number, number] {
  if (plane === 'y') return [(219 * KR) / 255, (219 * KG) / 255, (219 * KB) / 255, 16 / 255];
  if (plane === 'u') {
    const s = 224 / 255 / 1.8556;
    return [-KR * s, -KG * s, (1 - KB) * s, 128 / 255];
  }
  const s = 224 / 255 / 1.5748;
  return [(1 - KR) * s, -KG * s, -KB * s, 128 / 255];
}

/**
 * The vertex attributes that draw `regions` (one quad each, in one draw): per vertex its target
 * position, the source pixel (centre) its first sample maps to, the step between its four samples
 * and its plane's coefficients. The map is affine, so at each texel centre the interpolated source
 * is exactly the pixel the region's map gives. Both the whole-frame pass and the dirty rectangles'
 * (rect-readback.ts) draw with these and YUV_REGION_*_SHADER.
 */
export function regionAttributes(regions: YuvRegion[]): {
  position: Float32Array;
  source: Float32Array;
  step: Float32Array;
  coeff: Float32Array;
  index: Uint16Array;
} {
  const n = regions.length * 4;
  const position = new Float32Array(n * 3);
  const source = new Float32Array(n * 2);
  const step = new Float32Array(n);
  const coeff = new Float32Array(n * 4);
  const index = new Uint16Array(regions.length * 6);
  regions.forEach((r, i) => {
    const c = planeCoefficients(r.plane);
    const corners = [
      [r.x0, r.y0],
      [r.x1, r.y0],
      [r.x0, r.y1],
      [r.x1, r.y1],
    ] as const;
    corners.forEach(([X, Y], k) => {
      const v = i * 4 + k;
      position.set([X, Y, 0], v * 3);
      source.set([r.ax * X + r.bx, r.ay * Y + r.by], v * 2);
      step[v] = r.step;
      coeff.set(c, v * 4);
    });
    index.set(
      [0, 1, 2, 2, 1, 3].map((k) => i * 4 + k),
      i * 6,
    );
  });
  return { position, source, step, coeff, index };
}

/** Vertex shader of the regions: positions in target pixels, four source texel centres as varyings. */
export const YUV_REGION_VERTEX_SHADER = /* glsl */ `
precision highp float;
attribute vec3 position;
attribute vec2 source;
attribute float step;
attribute vec4 coeff;
uniform vec2 targetSize;
uniform vec2 size;
varying vec2 uv0;
varying vec2 uv1;
varying vec2 uv2;
varying vec2 uv3;
varying vec4 vCoeff;
void main() {
  float v = 1.0 - source.y / size.y;
  uv0 = vec2(source.x / size.x, v);
  uv1 = vec2((source.x + step) / size.x, v);
  uv2 = vec2((source.x + 2.0 * step) / size.x, v);
  uv3 = vec2((source.x + 3.0 * step) / size.x, v);
  vCoeff = coeff;
  gl_Position = vec4(position.xy / targetSize * 2.0 - 1.0, 0.0, 1.0);
}
`;

/** Fragment shader of the regions: four texture reads at interpolated coordinates, no index maths. */
export const YUV_REGION_FRAGMENT_SHADER = /* glsl */ `
precision highp float;
uniform sampler2D src;
varying vec2 uv0;
varying vec2 uv1;
varying vec2 uv2;
varying vec2 uv3;
varying vec4 vCoeff;
float byteOf(vec2 uv) { return dot(texture2D(src, uv).rgb, vCoeff.rgb) + vCoeff.a; }
void main() {
  gl_FragColor = vec4(byteOf(uv0), byteOf(uv1), byteOf(uv2), byteOf(uv3));
}
`;

export const YUV_VERTEX_SHADER = /* glsl */ `
attribute vec3 position;
void main() { gl_Position = vec4(position.xy, 0.0, 1.0); }
`;
