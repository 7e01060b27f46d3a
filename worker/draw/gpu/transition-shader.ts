/**
 * The blending pass of scene transitions: the outgoing scene (`a`) and the incoming one (`b`),
 * each drawn whole into a target of its own, are combined into the scene target. Linear in
 * `progress` (0 = all `a`, 1 = all `b`), so a crossfade's midpoint is the even mix of both.
 */
import type { TransitionType } from '../../plan/plan.ts';

const KINDS: Record<TransitionType, number> = {
  crossfade: 0,
  'slide-left': 1,
  'slide-right': 2,
  'slide-up': 3,
  'slide-down': 4,
  'wipe-left': 5,
  'wipe-right': 6,
  'wipe-up': 7,
  'wipe-down': 8,
};

export const transitionKind = (type: TransitionType): number => KINDS[type] ?? 0;

export const TRANSITION_VERTEX_SHADER = /* glsl */ `
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
 * Image coordinates: x = u grows rightwards; the targets hold image row 0 at v = 1 (y-down
 * camera), so the image's downward y is 1 - v. "slide-left": the old scene leaves to the left
 * while the new one enters from the right edge; "wipe-left": an edge moves from the right edge to
 * the left, uncovering the new scene behind it. The others mirror these.
 */
export const TRANSITION_FRAGMENT_SHADER = /* glsl */ `
precision highp float;
uniform sampler2D a;
uniform sampler2D b;
uniform float progress;
uniform float kind;
varying vec2 vUv;

vec4 at(sampler2D s, float x, float y) { return texture2D(s, vec2(x, 1.0 - y)); }

void main() {
  float x = vUv.x;
  float y = 1.0 - vUv.y;
  float p = progress;
  vec4 c;
  if (kind < 0.5) {
    c = mix(at(a, x, y), at(b, x, y), p);
  } else if (kind < 1.5) {
    c = x < 1.0 - p ? at(a, x + p, y) : at(b, x - (1.0 - p), y);
  } else if (kind < 2.5) {
    c = x >= p ? at(a, x - p, y) : at(b, x + (1.0 - p), y);
  } else if (kind < 3.5) {
    c = y < 1.0 - p ? at(a, x, y + p) : at(b, x, y - (1.0 - p));
  } else if (kind < 4.5) {
    c = y >= p ? at(a, x, y - p) : at(b, x, y + (1.0 - p));
  } else if (kind < 5.5) {
    c = x >= 1.0 - p ? at(b, x, y) : at(a, x, y);
  } else if (kind < 6.5) {
    c = x < p ? at(b, x, y) : at(a, x, y);
  } else if (kind < 7.5) {
    c = y >= 1.0 - p ? at(b, x, y) : at(a, x, y);
  } else {
    c = y < p ? at(b, x, y) : at(a, x, y);
  }
  // Alpha kept: opaque scenes give 1; a movie that keeps alpha (renderAlpha) blends premultiplied RGBA.
  gl_FragColor = c;
}
`;
