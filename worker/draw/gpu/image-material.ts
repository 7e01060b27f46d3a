/**
 * The material of a picture layer without effects (text, shapes, images, an animated image's
 * frame): its texture, straight alpha, times the layer's opacity, blended over the scene. What
 * three.js's MeshBasicMaterial computes for a white material with a map, in a shader of its own:
 * llvmpipe runs this one's fragments about a quarter faster (measured: 147 against 196
 * microseconds a 200x200 quad at 1080p), and most of a frame's pixels are drawn by it. Its alpha
 * is weighed by the layer's soft edges (layer-edges.ts).
 */
import * as THREE from 'three';
import { EDGE_COVERAGE_GLSL, EDGE_VERTEX_GLSL, edgeUniforms } from './layer-edges.ts';

/**
 * The vertex shader of a layer's quad (a ShaderMaterial: three.js declares the attributes and
 * matrices): its texture coordinates as they are, and its distances to the layer's soft sides
 * (layer-edges.ts). Picture, video and effect layers share it.
 */
export const LAYER_VERTEX_SHADER = /* glsl */ `
varying vec2 vUv;
${EDGE_VERTEX_GLSL}
void main() {
  vUv = uv;
  PLACE_EDGES;
  gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0);
}
`;

const FRAGMENT = /* glsl */ `
uniform sampler2D map;
uniform float opacity;
varying vec2 vUv;
${EDGE_COVERAGE_GLSL}
void main() {
  vec4 t = texture2D(map, vUv);
  gl_FragColor = vec4(t.rgb, t.a * opacity * edgeCoverage());
}
`;

/** `map` drawn with the layer's opacity (uniform `opacity`), both sides (the y-down camera turns the winding). */
export function createImageMaterial(map: THREE.Texture): THREE.ShaderMaterial {
  return new THREE.ShaderMaterial({
    vertexShader: LAYER_VERTEX_SHADER,
    fragmentShader: FRAGMENT,
    uniforms: { map: { value: map }, opacity: { value: 1 }, ...edgeUniforms() },
    transparent: true,
    depthTest: false,
    depthWrite: false,
    side: THREE.DoubleSide,
  });
}
