/**
 * Layer edges that fall between pixels. The frame is drawn without multisampling (render targets
 * with no samples of their own), so GL fills a pixel when its centre is inside a quad: on its own, a
 * layer's edge lands on the pixel boundary nearest its place, and a box drifting 10 px in 2 s
 * moves in whole-pixel steps every few frames while its (linearly filtered) inside glides.
 *
 * So each layer's shader weighs its alpha by how much of the pixel the layer's rectangle covers,
 * per axis: with `a` and `b` the distances, in screen pixels, from the pixel's centre to the two
 * edges across an axis (positive inside), the covered share of the pixel's width is
 * clamp(min(a, 0.5) + min(b, 0.5), 0, 1) (exact for an axis-aligned rectangle, a thin one too),
 * and the two axes multiply (exact at an axis-aligned corner). The distances are the vertex's
 * position in the quad's own pixels, less the side's, times the layer's scale on that axis (a
 * rotation keeps lengths): linear across the quad, so the vertex shader works them out and the
 * fragments get them interpolated, with no derivatives (no OES_standard_derivatives) and four
 * operations a pixel. A turned edge is weighed by its distance alone: the pixel taken as a disc,
 * near enough. A layer with no soft side draws with a variant of its shader without any of it
 * (the SOFT_EDGES define): the weights cost about a tenth of a picture layer's drawing time on
 * llvmpipe, paid only by layers whose edges are between pixels in that frame.
 *
 * For the half of a pixel outside an edge to be drawn at all, a soft side of the quad is pushed
 * out by one screen pixel (its texture coordinates extended the same way: a texture's edge texel
 * repeats there, clamped, which with the weight is exactly what a one-texel transparent border
 * would give under linear filtering).
 *
 * Which sides are soft. A side is weighed only where it is the picture's edge: a side of the
 * texture (or of a video), or of the keyframed crop (`mask`). The sides a `crop` cuts inside the
 * texture (the pieces of a text reveal, a caption's lit word) stay hard: the pieces tile, and two
 * soft edges meeting would let the background show through the seam. And a side that lands on a
 * pixel boundary, unturned, is left hard as well: its weights would be 1 and 0 anyway, and a layer
 * with every side there (a background at its place, a still image, an unmoved full-frame clip)
 * is drawn exactly as before, its quad unchanged, opaque when it was.
 */
import * as THREE from 'three';

/**
 * The vertex shader's part (after `position` is declared): each fragment's distances in screen
 * pixels to the four sides (left, top, right, bottom; positive inside), from the quad's own pixels:
 * linear in the position, so interpolated exactly. `edges` are the rectangle's sides in those
 * pixels (x0, y0, x1, y1; a hard side far away), `edgeScale` the screen pixels one is on each axis.
 */
export const EDGE_VERTEX_GLSL = /* glsl */ `
#ifdef SOFT_EDGES
uniform vec4 edges;
uniform vec2 edgeScale;
varying vec4 vEdge;
#define PLACE_EDGES vEdge = vec4(position.xy - edges.xy, edges.zw - position.xy) * edgeScale.xyxy
#else
#define PLACE_EDGES
#endif
`;

/**
 * The fragment shader's part: `edgeCoverage()`, the share of the pixel inside the soft sides;
 * without SOFT_EDGES (no side soft: setEdgeUniforms), 1.
 */
export const EDGE_COVERAGE_GLSL = /* glsl */ `
#ifdef SOFT_EDGES
varying vec4 vEdge;
float edgeCoverage() {
  vec2 c = clamp(min(vEdge.xy, 0.5) + min(vEdge.zw, 0.5), 0.0, 1.0);
  return c.x * c.y;
}
#else
float edgeCoverage() {
  return 1.0;
}
#endif
`;

/** Where a hard side is put in `edges`: far enough that its weight is always 1. */
const FAR = 1e5;

/**
 * An edge this close to a pixel boundary (in pixels) counts as on it: half a level of 8-bit alpha
 * at most, which rounding takes away.
 */
const ON_BOUNDARY = 1 / 512;

/** The uniforms EDGE_VERTEX_GLSL reads, every side hard (the quad as built). */
export function edgeUniforms(): { edges: THREE.IUniform; edgeScale: THREE.IUniform } {
  return { edges: { value: new THREE.Vector4(-FAR, -FAR, FAR, FAR) }, edgeScale: { value: new THREE.Vector2(1, 1) } };
}

/** A rectangle in a quad's own pixels, centred on the layer (y down). */
export interface LocalRect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Per side, in the order left, top, right, bottom. */
export type Sides = [boolean, boolean, boolean, boolean];

/** How a quad is placed on screen: its centre, its scale on each axis, its turn (degrees). */
export interface ScreenPlacement {
  cx: number;
  cy: number;
  sx: number;
  sy: number;
  rotation: number;
  /** The frame's size: an unturned side on or past its border covers every pixel it reaches whole. */
  frame?: { width: number; height: number } | undefined;
}

/**
 * Which of `rect`'s sides are drawn soft: those that are the picture's edge (`edge`) and are
 * turned, or off a pixel boundary and inside the frame once placed (a side past the frame's
 * border leaves every pixel of the frame whole: a background panning or zooming past the frame
 * keeps the cheaper variant, and a clip stays opaque). A layer scaled to nothing has none (there
 * is no pixel to push a side out by).
 */
export function softSides(rect: LocalRect, edge: Sides, at: ScreenPlacement): Sides {
  if (Math.abs(at.sx) < 1e-6 || Math.abs(at.sy) < 1e-6) return [false, false, false, false];
  if (at.rotation % 360 !== 0) return [...edge];
  const off = (v: number) => Math.abs(v - Math.round(v)) > ON_BOUNDARY;
  const [w, h] = [at.frame?.width ?? Number.POSITIVE_INFINITY, at.frame?.height ?? Number.POSITIVE_INFINITY];
  // The sides' places on screen, the way they face (a negative scale flips them).
  const [left, right] = [at.cx + rect.x0 * at.sx, at.cx + rect.x1 * at.sx].sort((a, b) => a - b) as [number, number];
  const [top, bottom] = [at.cy + rect.y0 * at.sy, at.cy + rect.y1 * at.sy].sort((a, b) => a - b) as [number, number];
  const flipX = at.sx < 0;
  const flipY = at.sy < 0;
  const soft = {
    left: off(left) && left > 0,
    right: off(right) && right < w,
    top: off(top) && top > 0,
    bottom: off(bottom) && bottom < h,
  };
  return [
    edge[0] && (flipX ? soft.right : soft.left),
    edge[1] && (flipY ? soft.bottom : soft.top),
    edge[2] && (flipX ? soft.left : soft.right),
    edge[3] && (flipY ? soft.top : soft.bottom),
  ];
}

/**
 * Sets a material's edge uniforms (when it has them) for `rect` with `soft` sides, placed with
 * scales `sx`, `sy`, and its SOFT_EDGES define when some side is soft (three.js keeps the program
 * of each variant, so turning it on and off as a layer moves and rests compiles each once).
 */
export function setEdgeUniforms(material: THREE.Material, rect: LocalRect, soft: Sides, sx: number, sy: number): void {
  const m = material as THREE.Material & {
    uniforms?: Record<string, THREE.IUniform>;
    defines?: Record<string, string>;
  };
  const u = m.uniforms;
  if (!u?.edges || !u.edgeScale) return;
  (u.edges.value as THREE.Vector4).set(
    soft[0] ? rect.x0 : -FAR,
    soft[1] ? rect.y0 : -FAR,
    soft[2] ? rect.x1 : FAR,
    soft[3] ? rect.y1 : FAR,
  );
  (u.edgeScale.value as THREE.Vector2).set(Math.abs(sx), Math.abs(sy));
  const on = soft.some(Boolean);
  m.defines ??= {};
  if (on !== 'SOFT_EDGES' in m.defines) {
    if (on) m.defines.SOFT_EDGES = '';
    else delete m.defines.SOFT_EDGES;
    m.needsUpdate = true;
  }
}
