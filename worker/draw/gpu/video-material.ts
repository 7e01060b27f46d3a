/**
 * How a video layer is drawn: its decoded yuv420p frame goes up as three single-channel textures
 * (1.5 bytes a pixel, no conversion in ffmpeg) and this material turns it into RGB with the
 * source's matrix. Limited range in, full-range RGB out, as the rest of the scene.
 */
import * as THREE from 'three';
import type { YuvMatrix } from '../../plan/video-source.ts';
import { LAYER_VERTEX_SHADER } from './image-material.ts';
import { EDGE_COVERAGE_GLSL, edgeUniforms } from './layer-edges.ts';

/** R = Y + kr V; G = Y - kgu U - kgv V; B = Y + kb U (Y, U, V normalised). */
const MATRICES: Record<YuvMatrix, THREE.Vector4> = {
  bt709: new THREE.Vector4(1.5748, 0.187324, 0.468124, 1.8556),
  bt601: new THREE.Vector4(1.402, 0.344136, 0.714136, 1.772),
};

const FRAGMENT = /* glsl */ `
precision highp float;
uniform sampler2D yPlane;
uniform sampler2D uPlane;
uniform sampler2D vPlane;
uniform vec4 matrix;
uniform float opacity;
varying vec2 vUv;
${EDGE_COVERAGE_GLSL}
void main() {
  float y = (texture2D(yPlane, vUv).r - 16.0 / 255.0) * (255.0 / 219.0);
  float u = (texture2D(uPlane, vUv).r - 128.0 / 255.0) * (255.0 / 224.0);
  float v = (texture2D(vPlane, vUv).r - 128.0 / 255.0) * (255.0 / 224.0);
  vec3 rgb = vec3(y + matrix.x * v, y - matrix.y * u - matrix.z * v, y + matrix.w * u);
  gl_FragColor = vec4(clamp(rgb, 0.0, 1.0), opacity * edgeCoverage());
}
`;

/** A texture of raw bytes as the renderer uploads them: linear filtering, no mipmaps, no colour conversion. */
export function dataTexture(
  data: Uint8Array,
  width: number,
  height: number,
  format: THREE.PixelFormat,
): THREE.DataTexture {
  const tex = new THREE.DataTexture(data, width, height);
  tex.format = format;
  tex.type = THREE.UnsignedByteType;
  tex.minFilter = THREE.LinearFilter;
  tex.magFilter = THREE.LinearFilter;
  tex.generateMipmaps = false;
  tex.colorSpace = THREE.NoColorSpace;
  return tex;
}

function plane(width: number, height: number): THREE.DataTexture {
  const tex = dataTexture(new Uint8Array(width * height), width, height, THREE.RedFormat);
  // Rows of odd-width planes are not 4-byte aligned.
  tex.unpackAlignment = 1;
  return tex;
}

export interface VideoMaterial {
  material: THREE.ShaderMaterial;
  /** The Y, U and V plane textures (effects-shader.ts reads them too). */
  planes: readonly [THREE.DataTexture, THREE.DataTexture, THREE.DataTexture];
  /** Points the planes at a new frame (views into `yuv`, no copy) when `content` changed. */
  update(yuv: Uint8Array, content: number | undefined): void;
  /** This frame's opacity, and whether a side is soft (placeMesh): either makes it blended. */
  setOpacity(opacity: number, soft: boolean): void;
  dispose(): void;
}

export function createVideoMaterial(width: number, height: number, matrix: YuvMatrix): VideoMaterial {
  const cw = width / 2;
  const ch = height / 2;
  const planes = [plane(width, height), plane(cw, ch), plane(cw, ch)] as const;
  const material = new THREE.ShaderMaterial({
    vertexShader: LAYER_VERTEX_SHADER,
    fragmentShader: FRAGMENT,
    uniforms: {
      yPlane: { value: planes[0] },
      uPlane: { value: planes[1] },
      vPlane: { value: planes[2] },
      matrix: { value: MATRICES[matrix] },
      opacity: { value: 1 },
      ...edgeUniforms(),
    },
    // Opaque unless faded or with a soft edge (layer-edges.ts): blending a full-frame clip costs as
    // much as drawing it on llvmpipe.
    transparent: false,
    depthTest: false,
    depthWrite: false,
    side: THREE.DoubleSide,
  });
  let shown: number | undefined = Number.NaN;
  let bytes: Uint8Array | undefined;
  const ySize = width * height;
  const cSize = cw * ch;
  return {
    material,
    planes,
    update(yuv, content) {
      if (content === shown && yuv === bytes) return;
      shown = content;
      bytes = yuv;
      const views = [yuv.subarray(0, ySize), yuv.subarray(ySize, ySize + cSize), yuv.subarray(ySize + cSize)];
      planes.forEach((p, i) => {
        (p.image as unknown as { data: Uint8Array }).data = views[i]!;
        p.needsUpdate = true;
      });
    },
    setOpacity(opacity, soft) {
      material.uniforms.opacity!.value = opacity;
      material.transparent = opacity < 1 || soft;
    },
    dispose() {
      for (const p of planes) p.dispose();
      material.dispose();
    },
  };
}
