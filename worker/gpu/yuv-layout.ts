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
  // Linear filtering at the shared corner of a 2x2 block averages its four pixels in one tap.
  vec3 rgb = rgbAt(cr * 2.0 + 1.0);
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

/** Fast path for aligned layouts: luma rows 1:1, then U and V with two chroma rows per target row. */
export const YUV_ALIGNED_FRAGMENT_SHADER = /* glsl */ `
precision highp float;
uniform sampler2D src;
uniform vec2 size;
uniform float targetWidth;

const vec3 KY = vec3(0.2126, 0.7152, 0.0722);

vec3 rgbAt(float x, float y) {
  return texture2D(src, vec2(x / size.x, 1.0 - y / size.y)).rgb;
}

float luma(float x, float y) {
  return (16.0 + 219.0 * dot(rgbAt(x, y), KY)) / 255.0;
}

float chroma(float cx, float cy, bool isV) {
  vec3 rgb = rgbAt(cx * 2.0 + 1.0, cy * 2.0 + 1.0);
  float y = dot(rgb, KY);
  float d = isV ? (rgb.r - y) / 1.5748 : (rgb.b - y) / 1.8556;
  return (128.0 + 224.0 * d) / 255.0;
}

void main() {
  vec2 p = floor(gl_FragCoord.xy);
  if (p.y < size.y) {
    float x = p.x * 4.0 + 0.5;
    float y = p.y + 0.5;
    gl_FragColor = vec4(luma(x, y), luma(x + 1.0, y), luma(x + 2.0, y), luma(x + 3.0, y));
    return;
  }
  float q = p.y - size.y;
  float planeRows = size.y * 0.25;
  bool isV = q >= planeRows;
  if (isV) q -= planeRows;
  float halfWidth = targetWidth * 0.5;
  float second = p.x >= halfWidth ? 1.0 : 0.0;
  float cy = q * 2.0 + second;
  float cx = (p.x - second * halfWidth) * 4.0;
  gl_FragColor = vec4(chroma(cx, cy, isV), chroma(cx + 1.0, cy, isV), chroma(cx + 2.0, cy, isV), chroma(cx + 3.0, cy, isV));
}
`;

export const YUV_VERTEX_SHADER = /* glsl */ `
attribute vec3 position;
void main() { gl_Position = vec4(position.xy, 0.0, 1.0); }
`;
