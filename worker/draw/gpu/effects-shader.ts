/**
 * The effects of an image or video layer (worker/plan/layer-effects.ts), drawn on the GPU in the
 * layer's own pass: one material replaces the layer's plain one and does, per pixel, in order:
 *
 *   1. the source: the image's RGBA texel, or the clip's Y, U, V planes turned into RGB with its
 *      matrix (the same formulas as video-material.ts);
 *   2. chroma key (ffmpeg chromakey's): d = sqrt((dU² + dV²) / 2) / 255 on 8-bit U, V (an image's
 *      from its RGB with BT.601), alpha = clamp((d - similarity) / smoothness, 0, 1), or d > similarity
 *      when smoothness is 0;
 *   3. blur: a separable gaussian, sigma = 0.57735 * radius + 0.5 output pixels, taps to ±3 sigma,
 *      in premultiplied alpha (no dark fringes), the picture's edge texels extended. Two passes
 *      into render targets of the layer's size before the scene is drawn (horizontal from the
 *      source, vertical from the first), redone only when the source changes (a clip's next
 *      frame). A wide blur runs on a target scaled down by k = round(sigma / 4) so that sigma
 *      stays at 3 to 6 texels there (at most 37 taps a pass); linear filtering scales it back;
 *   4. colour filters, each clamped to 0..1 as CSS filter functions: brightness b: c * b;
 *      contrast c: (x - 0.5) * c + 0.5; saturation s: the Filter Effects saturate matrix;
 *      grayscale g: the saturate matrix of 1 - g;
 *   5. rounded corners and border: the signed distance d to the rounded rectangle of the layer's
 *      size (negative inside), coverage clamp(0.5 - d, 0, 1) in screen pixels (anti-aliased over
 *      one pixel); the border is the ring between that edge and the same shape inset by its
 *      width (radius minus width), and replaces the picture under it;
 *   6. opacity (the element's times its animation's), and the layer's soft edges (layer-edges.ts:
 *      the rounded rectangle's coverage is the smaller of its own and theirs, as both fall off by
 *      the same distance in screen pixels at a straight side).
 *
 * The blurred background of a contained picture is a second mesh, a child of the layer's, covering
 * the box behind it: the source without key or filters, scaled to cover the box, blurred the same
 * way into targets of the box's size, times its brightness.
 */
import * as THREE from 'three';
import { sigmaOfRadius } from '../../../movie/v1/effects.ts';
import type { LayerEffects } from '../../plan/layer-effects.ts';
import { LAYER_VERTEX_SHADER } from './image-material.ts';
import { EDGE_COVERAGE_GLSL, edgeUniforms } from './layer-edges.ts';

/** R = Y + kr V; G = Y - kgu U - kgv V; B = Y + kb U (video-material.ts's table). */
const MATRICES = {
  bt709: new THREE.Vector4(1.5748, 0.187324, 0.468124, 1.8556),
  bt601: new THREE.Vector4(1.402, 0.344136, 0.714136, 1.772),
} as const;

/** The picture an effect layer reads: an RGBA texture, or a clip's three planes. */
export type EffectSource =
  | { kind: 'rgba'; map: THREE.Texture }
  | { kind: 'yuv'; planes: readonly [THREE.Texture, THREE.Texture, THREE.Texture]; matrix: 'bt709' | 'bt601' };

/** `source(uv)`: premultiplied RGBA of the picture at uv, keyed when KEY is defined. */
const SOURCE_GLSL = /* glsl */ `
#ifdef YUV
uniform sampler2D yPlane;
uniform sampler2D uPlane;
uniform sampler2D vPlane;
uniform vec4 matrix;
#else
uniform sampler2D map;
#endif
#ifdef KEY
uniform vec4 key; // U, V (8-bit), similarity, smoothness
float keyAlpha(float u8, float v8) {
  vec2 d = vec2(u8, v8) - key.xy;
  float dist = sqrt(dot(d, d) / 2.0) / 255.0;
  if (key.w > 0.0001) return clamp((dist - key.z) / key.w, 0.0, 1.0);
  return dist > key.z ? 1.0 : 0.0;
}
#endif
vec4 source(vec2 uv) {
#ifdef YUV
  float yb = texture2D(yPlane, uv).r;
  float ub = texture2D(uPlane, uv).r;
  float vb = texture2D(vPlane, uv).r;
  float y = (yb - 16.0 / 255.0) * (255.0 / 219.0);
  float u = (ub - 128.0 / 255.0) * (255.0 / 224.0);
  float v = (vb - 128.0 / 255.0) * (255.0 / 224.0);
  vec3 rgb = clamp(vec3(y + matrix.x * v, y - matrix.y * u - matrix.z * v, y + matrix.w * u), 0.0, 1.0);
  float a = 1.0;
#ifdef KEY
  a = keyAlpha(ub * 255.0, vb * 255.0);
#endif
#else
  vec4 c = texture2D(map, uv);
  vec3 rgb = c.rgb;
  float a = c.a;
#ifdef KEY
  float ly = dot(rgb, vec3(0.299, 0.587, 0.114));
  a *= keyAlpha(128.0 + 224.0 * (rgb.b - ly) / 1.772, 128.0 + 224.0 * (rgb.r - ly) / 1.402);
#endif
#endif
  return vec4(rgb * a, a);
}
`;

const PASS_VERTEX = /* glsl */ `
precision highp float;
attribute vec3 position;
attribute vec2 uv;
varying vec2 vUv;
void main() {
  vUv = uv;
  gl_Position = vec4(position.xy, 0.0, 1.0);
}
`;

/**
 * One direction of the gaussian. FROM_SOURCE: reads the picture (source(), within `rect` of its
 * uv: the cover crop of a background), else the previous pass's premultiplied target `src`.
 */
const BLUR_FRAGMENT = /* glsl */ `
precision highp float;
${SOURCE_GLSL}
uniform sampler2D src;
uniform vec4 rect; // u0, v0, du, dv: target uv -> read uv
uniform vec2 dir;  // read-uv step of one target texel along the pass
uniform float sigma; // in target texels
varying vec2 vUv;
vec4 read(vec2 uv) {
#ifdef FROM_SOURCE
  return source(uv);
#else
  return texture2D(src, uv);
#endif
}
void main() {
  vec2 at = rect.xy + vUv * rect.zw;
  float n = ceil(3.0 * sigma);
  vec4 sum = vec4(0.0);
  float total = 0.0;
  for (int i = -32; i <= 32; i++) {
    float t = float(i);
    if (abs(t) > n) continue;
    float w = exp(-0.5 * t * t / (sigma * sigma));
    sum += w * read(at + t * dir);
    total += w;
  }
  gl_FragColor = sum / total;
}
`;

const LAYER_FRAGMENT = /* glsl */ `
precision highp float;
${SOURCE_GLSL}
#ifdef BLURRED
uniform sampler2D blurred;
#endif
uniform vec2 size;        // the layer's size, its pixels
uniform float pixel;      // one screen pixel in the layer's pixels (1 / scale)
uniform float radius;
uniform float borderWidth;
uniform vec4 borderColor; // straight alpha
uniform vec4 filters;     // brightness, contrast, saturation, grayscale
uniform float opacity;
varying vec2 vUv;
${EDGE_COVERAGE_GLSL}

float roundRect(vec2 p, vec2 halfSize, float r) {
  vec2 q = abs(p) - halfSize + r;
  return length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - r;
}

vec3 saturate3(vec3 c, float s) {
  mat3 m = mat3(
    0.213 + 0.787 * s, 0.213 - 0.213 * s, 0.213 - 0.213 * s,
    0.715 - 0.715 * s, 0.715 + 0.285 * s, 0.715 - 0.715 * s,
    0.072 - 0.072 * s, 0.072 - 0.072 * s, 0.072 + 0.928 * s);
  return clamp(m * c, 0.0, 1.0);
}

void main() {
#ifdef BLURRED
  vec4 c = texture2D(blurred, vUv);
#else
  vec4 c = source(vUv);
#endif
#ifdef BACKGROUND
  // The blurred background: its own brightness only (filters.x).
  vec3 rgb = c.a > 0.0 ? c.rgb / c.a : vec3(0.0);
  rgb = clamp(rgb * filters.x, 0.0, 1.0);
  gl_FragColor = vec4(rgb, c.a * opacity * edgeCoverage());
#else
  vec3 rgb = c.a > 0.0 ? c.rgb / c.a : vec3(0.0);
#ifdef FILTERS
  rgb = clamp(rgb * filters.x, 0.0, 1.0);
  rgb = clamp((rgb - 0.5) * filters.y + 0.5, 0.0, 1.0);
  rgb = saturate3(rgb, filters.z);
  rgb = saturate3(rgb, 1.0 - filters.w);
#endif
  vec4 p = vec4(rgb * c.a, c.a);
  float edge = edgeCoverage();
#ifdef MASK
  vec2 q = vUv * size - size * 0.5;
  float outer = min(edge, clamp(0.5 - roundRect(q, size * 0.5, radius) / pixel, 0.0, 1.0));
  float inner = outer;
  if (borderWidth > 0.0) {
    vec2 ih = max(size * 0.5 - borderWidth, vec2(0.0));
    inner = min(outer, clamp(0.5 - roundRect(q, ih, max(radius - borderWidth, 0.0)) / pixel, 0.0, 1.0));
  }
  p = p * inner + vec4(borderColor.rgb * borderColor.a, borderColor.a) * (outer - inner);
#else
  p *= edge;
#endif
  gl_FragColor = p.a > 0.0 ? vec4(p.rgb / p.a, p.a * opacity) : vec4(0.0);
#endif
}
`;

/** A render target the blur passes write: linear filtering, so a scaled-down one scales back smoothly. */
function blurTarget(w: number, h: number): THREE.WebGLRenderTarget {
  return new THREE.WebGLRenderTarget(w, h, {
    minFilter: THREE.LinearFilter,
    magFilter: THREE.LinearFilter,
    depthBuffer: false,
    generateMipmaps: false,
  });
}

function sourceUniforms(source: EffectSource): Record<string, THREE.IUniform> {
  if (source.kind === 'rgba') return { map: { value: source.map } };
  return {
    yPlane: { value: source.planes[0] },
    uPlane: { value: source.planes[1] },
    vPlane: { value: source.planes[2] },
    matrix: { value: MATRICES[source.matrix] },
  };
}

interface Blur {
  /** The result: premultiplied, the size of the area blurred divided by k. */
  texture: THREE.Texture;
  run(renderer: THREE.WebGLRenderer): void;
  dispose(): void;
}

/**
 * The two gaussian passes of a `width` x `height` area (output pixels) whose target uv maps to the
 * source's uv through `rect` (u0, v0, du, dv).
 */
function createBlur(
  source: EffectSource,
  key: LayerEffects['chromaKey'],
  radius: number,
  width: number,
  height: number,
  rect: THREE.Vector4,
): Blur {
  const sigma = sigmaOfRadius(radius);
  const k = Math.max(1, Math.round(sigma / 4));
  const tw = Math.max(1, Math.ceil(width / k));
  const th = Math.max(1, Math.ceil(height / k));
  const a = blurTarget(tw, th);
  const b = blurTarget(tw, th);
  const defines: Record<string, string> = { FROM_SOURCE: '' };
  if (source.kind === 'yuv') defines.YUV = '';
  if (key) defines.KEY = '';
  const pass = (extra: Record<string, string>, uniforms: Record<string, THREE.IUniform>) =>
    new THREE.RawShaderMaterial({
      vertexShader: PASS_VERTEX,
      fragmentShader: BLUR_FRAGMENT,
      defines: extra,
      uniforms: {
        src: { value: null },
        rect: { value: new THREE.Vector4(0, 0, 1, 1) },
        dir: { value: new THREE.Vector2() },
        sigma: { value: sigma / k },
        ...(key ? { key: { value: new THREE.Vector4(key.u, key.v, key.similarity, key.smoothness) } } : {}),
        ...uniforms,
      },
      depthTest: false,
      depthWrite: false,
    });
  // Horizontal: one target texel is k output pixels, a du / width of the read uv each.
  const first = pass(defines, sourceUniforms(source));
  first.uniforms.rect!.value = rect;
  first.uniforms.dir!.value.set((rect.z * k) / width, 0);
  const second = pass(source.kind === 'yuv' ? { YUV: '' } : {}, sourceUniforms(source));
  second.uniforms.src!.value = a.texture;
  second.uniforms.dir!.value.set(0, 1 / th);
  const mesh = new THREE.Mesh(new THREE.PlaneGeometry(2, 2), first);
  mesh.frustumCulled = false;
  const scene = new THREE.Scene();
  scene.add(mesh);
  const camera = new THREE.OrthographicCamera(-1, 1, 1, -1, -1, 1);
  return {
    texture: b.texture,
    run(renderer) {
      for (const [material, target] of [
        [first, a],
        [second, b],
      ] as const) {
        mesh.material = material;
        target.scissorTest = false;
        renderer.setRenderTarget(target);
        renderer.render(scene, camera);
      }
    },
    dispose() {
      a.dispose();
      b.dispose();
      first.dispose();
      second.dispose();
      mesh.geometry.dispose();
    },
  };
}

export interface EffectLayer {
  material: THREE.ShaderMaterial;
  /** The blurred background behind a contained picture, to add as a child of the layer's mesh. */
  background: THREE.Mesh | undefined;
  /** The RGBA texture it reads (the renderer keeps it while the layer lives). */
  map: THREE.Texture | undefined;
  /**
   * Before the scene is drawn: the blur passes when the source changed (`content`: a clip's frame
   * number; images never change), then this frame's opacity and scale.
   */
  update(renderer: THREE.WebGLRenderer, opacity: number, scale: number, content: number | undefined): void;
  dispose(): void;
}

/** The material (and background mesh) of a layer `width` x `height` with `effects`. */
export function createEffectLayer(
  source: EffectSource,
  effects: LayerEffects,
  width: number,
  height: number,
  renderOrder: number,
): EffectLayer {
  const key = effects.chromaKey;
  const blur = effects.blur
    ? createBlur(source, key, effects.blur, width, height, new THREE.Vector4(0, 0, 1, 1))
    : undefined;
  const defines: Record<string, string> = {};
  if (source.kind === 'yuv') defines.YUV = '';
  if (key && !blur) defines.KEY = '';
  if (blur) defines.BLURRED = '';
  if (effects.filters) defines.FILTERS = '';
  if (effects.cornerRadius || effects.border) defines.MASK = '';
  const f = effects.filters;
  const border = effects.border;
  const material = new THREE.ShaderMaterial({
    vertexShader: LAYER_VERTEX_SHADER,
    fragmentShader: LAYER_FRAGMENT,
    defines,
    uniforms: {
      ...sourceUniforms(source),
      ...(key ? { key: { value: new THREE.Vector4(key.u, key.v, key.similarity, key.smoothness) } } : {}),
      blurred: { value: blur?.texture ?? null },
      size: { value: new THREE.Vector2(width, height) },
      pixel: { value: 1 },
      radius: { value: effects.cornerRadius ?? 0 },
      borderWidth: { value: border?.width ?? 0 },
      borderColor: {
        value: border ? new THREE.Vector4(...border.color.map((c) => c / 255)) : new THREE.Vector4(0, 0, 0, 0),
      },
      filters: {
        value: new THREE.Vector4(f?.brightness ?? 1, f?.contrast ?? 1, f?.saturation ?? 1, f?.grayscale ?? 0),
      },
      opacity: { value: 1 },
      ...edgeUniforms(),
    },
    transparent: true,
    depthTest: false,
    depthWrite: false,
    side: THREE.DoubleSide,
  });

  // The background: the box, the source scaled to cover it (a centred crop of its uv), blurred.
  let background: THREE.Mesh | undefined;
  let backgroundBlur: Blur | undefined;
  let backgroundMaterial: THREE.ShaderMaterial | undefined;
  const bg = effects.background;
  if (bg) {
    const cover = Math.max(bg.width / width, bg.height / height);
    const du = bg.width / cover / width;
    const dv = bg.height / cover / height;
    backgroundBlur = createBlur(
      source,
      undefined,
      bg.blur,
      bg.width,
      bg.height,
      new THREE.Vector4((1 - du) / 2, (1 - dv) / 2, du, dv),
    );
    backgroundMaterial = new THREE.ShaderMaterial({
      vertexShader: LAYER_VERTEX_SHADER,
      fragmentShader: LAYER_FRAGMENT,
      defines: { ...(source.kind === 'yuv' ? { YUV: '' } : {}), BLURRED: '', BACKGROUND: '' },
      uniforms: {
        ...sourceUniforms(source),
        blurred: { value: backgroundBlur.texture },
        filters: { value: new THREE.Vector4(bg.brightness, 1, 1, 0) },
        opacity: { value: 1 },
        ...edgeUniforms(),
      },
      transparent: true,
      depthTest: false,
      depthWrite: false,
      side: THREE.DoubleSide,
    });
    const w = bg.width;
    const h = bg.height;
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute(
      'position',
      new THREE.Float32BufferAttribute([-w / 2, -h / 2, 0, w / 2, -h / 2, 0, -w / 2, h / 2, 0, w / 2, h / 2, 0], 3),
    );
    geometry.setAttribute('uv', new THREE.Float32BufferAttribute([0, 0, 1, 0, 0, 1, 1, 1], 2));
    geometry.setIndex([0, 2, 1, 2, 3, 1]);
    background = new THREE.Mesh(geometry, backgroundMaterial);
    // The box's centre relative to the picture's (the parent mesh's origin), in its unscaled pixels.
    background.position.set(bg.x + w / 2 - width / 2, bg.y + h / 2 - height / 2, 0);
    background.renderOrder = renderOrder - 0.5;
    background.frustumCulled = false;
  }

  let drawn: number | undefined = Number.NaN;
  return {
    material,
    background,
    map: source.kind === 'rgba' ? source.map : undefined,
    update(renderer, opacity, scale, content) {
      material.uniforms.opacity!.value = opacity;
      material.uniforms.pixel!.value = 1 / Math.max(scale, 1e-6);
      if (backgroundMaterial) backgroundMaterial.uniforms.opacity!.value = opacity;
      if ((blur || backgroundBlur) && content !== drawn) {
        drawn = content;
        // The renderer uploads a texture when a material using it is first drawn: the passes are.
        blur?.run(renderer);
        backgroundBlur?.run(renderer);
        renderer.setRenderTarget(null);
      }
    },
    dispose() {
      blur?.dispose();
      backgroundBlur?.dispose();
      material.dispose();
      backgroundMaterial?.dispose();
      background?.geometry.dispose();
    },
  };
}
