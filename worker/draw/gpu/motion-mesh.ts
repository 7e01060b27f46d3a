/**
 * Places a layer's mesh for one frame: position, scale (both axes), rotation and crop (mask)
 * rectangle, as frame-state.ts evaluated them from the layer's keyframes (worker/plan/animate.ts),
 * not rounded to pixels: the sides that fall between pixels are drawn soft (layer-edges.ts), their
 * quad pushed out by a pixel and their alpha weighed by the share of each pixel they cover.
 */
import type * as THREE from 'three';
import { type LocalRect, type ScreenPlacement, type Sides, setEdgeUniforms, softSides } from './layer-edges.ts';

/** What placing reads of a layer's state (a LayerState). */
export interface Placed {
  x: number;
  y: number;
  width: number;
  height: number;
  scale: number;
  scaleY?: number | undefined;
  /** Degrees, clockwise on screen (the camera's y axis points down). */
  rotation?: number | undefined;
  /** The part of the layer's rectangle that shows, pixels from its top-left (unscaled). */
  mask?: { x0: number; y0: number; x1: number; y1: number } | undefined;
  /** The texels drawn, when not the whole texture: a side inside the texture stays hard (layer-edges.ts). */
  crop?: { x0: number; x1: number; y0: number; y1: number } | undefined;
  texture?: { width: number; height: number } | undefined;
}

/**
 * Places `mesh` for state `s` in a frame of `frame`'s size. True when a side of it, or of a child
 * quad (an effect layer's blurred background), is soft: the layer is then drawn blended, even
 * when opaque.
 */
export function placeMesh(mesh: THREE.Mesh, s: Placed, frame?: { width: number; height: number }): boolean {
  const at: ScreenPlacement = {
    cx: s.x + s.width / 2,
    cy: s.y + s.height / 2,
    sx: s.scale,
    sy: s.scaleY ?? s.scale,
    rotation: s.rotation ?? 0,
    frame,
  };
  mesh.position.set(at.cx, at.cy, 0);
  mesh.scale.set(at.sx, at.sy, 1);
  mesh.rotation.z = s.rotation ? (s.rotation * Math.PI) / 180 : 0;
  const { rect, edge } = shownRect(s);
  const soft = softSides(rect, edge, at);
  shapeQuad(mesh.geometry, rect, soft, at);
  setEdgeUniforms(mesh.material as THREE.Material, rect, soft, at.sx, at.sy);
  let any = soft.some(Boolean);
  for (const child of mesh.children) {
    const c = child as THREE.Mesh;
    if (c.isMesh) any = placeChild(c, at) || any;
  }
  return any;
}

/**
 * A quad drawn with its parent layer (the blurred background behind a contained picture: its
 * box, every side the picture's edge), placed by its offset from the parent's centre.
 */
function placeChild(child: THREE.Mesh, parent: ScreenPlacement): boolean {
  const rect = fullRect(child.geometry);
  const at = {
    ...parent,
    cx: parent.cx + child.position.x * parent.sx,
    cy: parent.cy + child.position.y * parent.sy,
  };
  const soft = softSides(rect, [true, true, true, true], at);
  shapeQuad(child.geometry, rect, soft, at);
  setEdgeUniforms(child.material as THREE.Material, rect, soft, at.sx, at.sy);
  return soft.some(Boolean);
}

/**
 * The part of the layer that shows, in its quad's pixels (centred), and which of its sides are
 * the picture's edge: a side of the keyframed crop inside the layer, or else the layer's own side
 * unless a texture crop cuts it inside the texture.
 */
function shownRect(s: Placed): { rect: LocalRect; edge: Sides } {
  const { width: w, height: h } = s;
  const m = s.mask;
  const x0 = m ? Math.min(Math.max(0, m.x0), w) : 0;
  const x1 = m ? Math.min(Math.max(x0, m.x1), w) : w;
  const y0 = m ? Math.min(Math.max(0, m.y0), h) : 0;
  const y1 = m ? Math.min(Math.max(y0, m.y1), h) : h;
  const c = s.crop;
  const t = s.texture;
  const edge: Sides = [
    x0 > 0 || !c || c.x0 <= 0,
    y0 > 0 || !c || c.y0 <= 0,
    x1 < w || !c || !t || c.x1 >= t.width,
    y1 < h || !c || !t || c.y1 >= t.height,
  ];
  return { rect: { x0: x0 - w / 2, y0: y0 - h / 2, x1: x1 - w / 2, y1: y1 - h / 2 }, edge };
}

/** The quad as built: its corners and texture coordinates (the renderer's vertex order). */
interface QuadData {
  key: string;
  position: Float32Array;
  uv: Float32Array;
}

function quadData(geometry: THREE.BufferGeometry): QuadData {
  let data = geometry.userData.quad as QuadData | undefined;
  if (!data) {
    const position = geometry.getAttribute('position') as THREE.BufferAttribute;
    const uv = geometry.getAttribute('uv') as THREE.BufferAttribute;
    data = {
      key: '',
      position: Float32Array.from(position.array as Float32Array),
      uv: Float32Array.from(uv.array as Float32Array),
    };
    geometry.userData.quad = data;
  }
  return data;
}

/** The whole quad as built, in its own pixels. */
function fullRect(geometry: THREE.BufferGeometry): LocalRect {
  const p = quadData(geometry).position;
  return { x0: p[0]!, y0: p[1]!, x1: p[9]!, y1: p[10]! };
}

/** a at f = 0, b at f = 1 exactly (a corner of the quad as built keeps its coordinates), between them linearly. */
const lerp = (a: number, b: number, f: number) => (f === 0 ? a : f === 1 ? b : a + (b - a) * f);

/**
 * The quad's corners (vertex order of the renderer's quads: top-left, top-right, bottom-left,
 * bottom-right) set to `rect`, each soft side pushed out by one screen pixel, with the texture
 * coordinates that the quad as built has there (extended linearly past its sides).
 */
function shapeQuad(geometry: THREE.BufferGeometry, rect: LocalRect, soft: Sides, at: ScreenPlacement): void {
  const position = geometry.getAttribute('position') as THREE.BufferAttribute | undefined;
  const uv = geometry.getAttribute('uv') as THREE.BufferAttribute | undefined;
  if (!position || !uv) return;
  const px = soft[0] || soft[2] ? 1 / Math.abs(at.sx) : 0;
  const py = soft[1] || soft[3] ? 1 / Math.abs(at.sy) : 0;
  const q = {
    x0: rect.x0 - (soft[0] ? px : 0),
    y0: rect.y0 - (soft[1] ? py : 0),
    x1: rect.x1 + (soft[2] ? px : 0),
    y1: rect.y1 + (soft[3] ? py : 0),
  };
  const data = quadData(geometry);
  const key = `${q.x0},${q.y0},${q.x1},${q.y1}`;
  if (data.key === key) return;
  data.key = key;
  const full = fullRect(geometry);
  const [u0, v0, u1, v1] = [data.uv[0]!, data.uv[1]!, data.uv[6]!, data.uv[7]!];
  const p = position.array as Float32Array;
  const t = uv.array as Float32Array;
  const xs = [q.x0, q.x1, q.x0, q.x1];
  const ys = [q.y0, q.y0, q.y1, q.y1];
  for (let i = 0; i < 4; i++) {
    p[i * 3] = xs[i]!;
    p[i * 3 + 1] = ys[i]!;
    t[i * 2] = lerp(u0, u1, (xs[i]! - full.x0) / (full.x1 - full.x0));
    t[i * 2 + 1] = lerp(v0, v1, (ys[i]! - full.y0) / (full.y1 - full.y0));
  }
  position.needsUpdate = true;
  uv.needsUpdate = true;
}
