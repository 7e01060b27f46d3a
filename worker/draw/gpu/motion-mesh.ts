/**
 * Places a layer's mesh for one frame: position, scale (both axes), rotation and crop (mask)
 * rectangle, as frame-state.ts evaluated them from the layer's keyframes (worker/plan/animate.ts).
 */
import type * as THREE from 'three';

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
}

export function placeMesh(mesh: THREE.Mesh, s: Placed): void {
  mesh.position.set(s.x + s.width / 2, s.y + s.height / 2, 0);
  mesh.scale.set(s.scale, s.scaleY ?? s.scale, 1);
  mesh.rotation.z = s.rotation ? (s.rotation * Math.PI) / 180 : 0;
  maskGeometry(mesh.geometry, s);
}

interface MaskData {
  key: string;
  /** The quad as built (whole rectangle): positions and texture coordinates. */
  position: Float32Array;
  uv: Float32Array;
}

/**
 * The quad's corners and texture coordinates cut to the mask (vertex order of the renderer's
 * quads: top-left, top-right, bottom-left, bottom-right), or restored when there is none.
 */
function maskGeometry(geometry: THREE.BufferGeometry, s: Placed): void {
  const m = s.mask;
  const key = m ? `${m.x0},${m.y0},${m.x1},${m.y1}` : '';
  const data = geometry.userData.mask as MaskData | undefined;
  if ((data?.key ?? '') === key) return;
  const position = geometry.getAttribute('position') as THREE.BufferAttribute;
  const uv = geometry.getAttribute('uv') as THREE.BufferAttribute | undefined;
  if (!uv) return;
  const full: MaskData = data ?? {
    key: '',
    position: Float32Array.from(position.array as Float32Array),
    uv: Float32Array.from(uv.array as Float32Array),
  };
  full.key = key;
  geometry.userData.mask = full;
  const p = position.array as Float32Array;
  const t = uv.array as Float32Array;
  p.set(full.position);
  t.set(full.uv);
  if (m) {
    const { width: w, height: h } = s;
    const [u0, v0] = [full.uv[0]!, full.uv[1]!];
    const [u1, v1] = [full.uv[6]!, full.uv[7]!];
    const x0 = Math.min(Math.max(0, m.x0), w);
    const x1 = Math.min(Math.max(x0, m.x1), w);
    const y0 = Math.min(Math.max(0, m.y0), h);
    const y1 = Math.min(Math.max(y0, m.y1), h);
    const xs = [x0, x1, x0, x1];
    const ys = [y0, y0, y1, y1];
    for (let i = 0; i < 4; i++) {
      p[i * 3] = xs[i]! - w / 2;
      p[i * 3 + 1] = ys[i]! - h / 2;
      t[i * 2] = u0 + ((u1 - u0) * xs[i]!) / w;
      t[i * 2 + 1] = v0 + ((v1 - v0) * ys[i]!) / h;
    }
  }
  position.needsUpdate = true;
  uv.needsUpdate = true;
}
