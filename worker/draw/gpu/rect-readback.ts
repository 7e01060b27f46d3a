/**
 * The YUV conversion and read-back of a frame's dirty rectangles (worker/plan/dirty-rects.ts). Each
 * rectangle's yuv420p bytes are converted, in one draw for all of them, into a block of a staging
 * target: its luma rows (w/4 texels of four bytes each), then its U rows and its V rows, each chroma
 * row pair side by side (even rows left, odd rows right: w/8 texels each). The blocks are packed
 * on shelves (tallest first), and ONE readPixels brings back the area they use (one a rectangle
 * before: about 5% more drawing time on the motion bench, most of each call being the wait for
 * llvmpipe to finish). Each block's rows are then copied into place in the frame. The samples
 * are those of the whole-frame pass (yuv-layout.ts): the same pixel centres, point-sampled, so a
 * frame drawn by rectangles is byte-identical to one drawn whole (test/worker/dirty-rects.test.ts).
 */
import * as THREE from 'three';
import { type DirtyRect, MAX_RECTS } from '../../plan/dirty-rects.ts';
import {
  regionAttributes,
  YUV_REGION_FRAGMENT_SHADER,
  YUV_REGION_VERTEX_SHADER,
  type YuvLayout,
  type YuvRegion,
} from './yuv-layout.ts';

/** Where a rectangle's block sits in the staging target: texels [left, left + w/4), rows [top, top + 1.5 h). */
interface StagedBlock {
  rect: DirtyRect;
  left: number;
  top: number;
  texels: number;
  rows: number;
}

/**
 * Blocks packed on shelves in a staging target of `maxTexels` x `maxRows`, tallest first, and the
 * area they use; undefined when they do not fit (the caller draws the frame whole).
 */
function stageBlocks(rects: DirtyRect[], maxTexels: number, maxRows: number): StagedRects | undefined {
  const sized = rects
    .map((rect) => ({ rect, texels: (rect.x1 - rect.x0) / 4, rows: ((rect.y1 - rect.y0) * 3) / 2 }))
    .sort((a, b) => b.rows - a.rows);
  const blocks: StagedBlock[] = [];
  let shelfTop = 0;
  let shelfRows = 0;
  let left = 0;
  let used = 0;
  for (const b of sized) {
    if (b.texels > maxTexels) return undefined;
    if (left + b.texels > maxTexels) {
      shelfTop += shelfRows;
      shelfRows = 0;
      left = 0;
    }
    if (shelfTop + b.rows > maxRows) return undefined;
    blocks.push({ ...b, left, top: shelfTop });
    left += b.texels;
    used = Math.max(used, left);
    shelfRows = Math.max(shelfRows, b.rows);
  }
  return { blocks, texels: used, rows: shelfTop + shelfRows };
}

/**
 * The regions (yuv-layout.ts) that convert `blocks`: per block its luma rows, then its U and its V
 * rows, even chroma rows left and odd ones right, each with the affine map from staging texels to
 * the source pixels the whole-frame pass samples for the same bytes.
 */
function blockRegions(blocks: StagedBlock[]): YuvRegion[] {
  const regions: YuvRegion[] = [];
  for (const b of blocks) {
    const { x0, y0 } = b.rect;
    const h = b.rows / 1.5;
    const L = b.left;
    const half = L + b.texels / 2;
    const right = L + b.texels;
    regions.push({
      plane: 'y',
      x0: L,
      y0: b.top,
      x1: right,
      y1: b.top + h,
      ax: 4,
      bx: x0 - 4 * L - 1.5,
      step: 1,
      ay: 1,
      by: y0 - b.top,
    });
    for (const [plane, top] of [
      ['u', b.top + h],
      ['v', b.top + h + h / 4],
    ] as const) {
      // Even chroma rows (image rows y0 + 4j) left, odd ones (y0 + 4j + 2) right.
      const rows = { y0: top, y1: top + h / 4, ax: 8, step: 2, ay: 4 };
      regions.push({ plane, x0: L, x1: half, bx: x0 - 8 * L - 3.5, by: y0 - 4 * top - 1.5, ...rows });
      regions.push({ plane, x0: half, x1: right, bx: x0 - 8 * half - 3.5, by: y0 - 4 * top + 0.5, ...rows });
    }
  }
  return regions;
}

/**
 * Copies a block out of the staging area read back (`stride` bytes a row, rows bottom-up as GL
 * stores them, which is staging row order) into the yuv420p `frame` of `width` x `height`.
 */
function scatterBlock(
  block: StagedBlock,
  bytes: Uint8Array,
  stride: number,
  frame: Uint8Array,
  width: number,
  height: number,
): void {
  const { x0, y0, x1 } = block.rect;
  const w = x1 - x0;
  const h = block.rows / 1.5;
  const at = (row: number) => (block.top + row) * stride + block.left * 4;
  for (let j = 0; j < h; j++) frame.set(bytes.subarray(at(j), at(j) + w), (y0 + j) * width + x0);
  const cw = width / 2;
  const luma = width * height;
  for (const [k, plane] of [
    [0, luma],
    [1, luma + luma / 4],
  ] as const) {
    for (let j = 0; j < h / 4; j++) {
      const row = at(h + k * (h / 4) + j);
      const chromaRow = y0 / 2 + 2 * j;
      frame.set(bytes.subarray(row, row + w / 2), plane + chromaRow * cw + x0 / 2);
      frame.set(bytes.subarray(row + w / 2, row + w), plane + (chromaRow + 1) * cw + x0 / 2);
    }
  }
}

/** Where a frame's rectangles go in the staging target (RectReadback.stage). */
interface StagedRects {
  blocks: StagedBlock[];
  /** The area the blocks use, from the staging target's corner: texels and rows. */
  texels: number;
  rows: number;
}

export interface RectReadback {
  /** Places `rects` in the staging target; undefined when they do not fit (the frame is drawn whole). */
  stage(rects: DirtyRect[]): StagedRects | undefined;
  /** Converts and reads back the staged rectangles of `source` (the scene target, already drawn) into `frame`. */
  read(staged: StagedRects, frame: Uint8Array): void;
  dispose(): void;
}

export function createRectReadback(
  renderer: THREE.WebGLRenderer,
  source: THREE.Texture,
  layout: YuvLayout,
): RectReadback {
  const { width, height, targetWidth } = layout;
  // Room for rectangles adding up to twice the frame's height: more is drawn whole.
  const maxTexels = 2 * targetWidth;
  const maxRows = 2 * height;
  const staging = new THREE.WebGLRenderTarget(maxTexels, maxRows, {
    minFilter: THREE.NearestFilter,
    magFilter: THREE.NearestFilter,
    depthBuffer: false,
    generateMipmaps: false,
  });
  const material = new THREE.RawShaderMaterial({
    vertexShader: YUV_REGION_VERTEX_SHADER,
    fragmentShader: YUV_REGION_FRAGMENT_SHADER,
    uniforms: {
      src: { value: source },
      size: { value: new THREE.Vector2(width, height) },
      targetSize: { value: new THREE.Vector2(maxTexels, maxRows) },
    },
    depthTest: false,
    depthWrite: false,
  });
  // Attributes for the most rectangles a frame has (five quads each), filled per frame.
  const quads = MAX_RECTS * 5;
  const attribute = (size: number) =>
    new THREE.BufferAttribute(new Float32Array(quads * 4 * size), size).setUsage(THREE.DynamicDrawUsage);
  const geometry = new THREE.BufferGeometry();
  const attributes = { position: attribute(3), source: attribute(2), step: attribute(1), coeff: attribute(4) };
  for (const [name, a] of Object.entries(attributes)) geometry.setAttribute(name, a);
  const index = new THREE.BufferAttribute(new Uint16Array(quads * 6), 1).setUsage(THREE.DynamicDrawUsage);
  geometry.setIndex(index);
  const mesh = new THREE.Mesh(geometry, material);
  mesh.frustumCulled = false;
  const scene = new THREE.Scene();
  scene.add(mesh);
  const camera = new THREE.OrthographicCamera(-1, 1, 1, -1, -1, 1);
  let buffer = new Uint8Array(0);
  return {
    stage: (rects) => (rects.length <= MAX_RECTS ? stageBlocks(rects, maxTexels, maxRows) : undefined),
    read(staged, frame) {
      const q = regionAttributes(blockRegions(staged.blocks));
      for (const name of ['position', 'source', 'step', 'coeff'] as const) {
        (attributes[name].array as Float32Array).set(q[name]);
        attributes[name].needsUpdate = true;
      }
      (index.array as Uint16Array).set(q.index);
      index.needsUpdate = true;
      geometry.setDrawRange(0, q.index.length);
      staging.scissorTest = false;
      renderer.setRenderTarget(staging);
      // Only the blocks are written and read: no clear of the staging target.
      const autoClear = renderer.autoClear;
      renderer.autoClear = false;
      renderer.render(scene, camera);
      renderer.autoClear = autoClear;
      const stride = staged.texels * 4;
      const bytes = stride * staged.rows;
      if (buffer.length < bytes) buffer = new Uint8Array(bytes);
      const view = buffer.subarray(0, bytes);
      renderer.readRenderTargetPixels(staging, 0, 0, staged.texels, staged.rows, view);
      for (const b of staged.blocks) scatterBlock(b, view, stride, frame, width, height);
      renderer.setRenderTarget(null);
    },
    dispose() {
      geometry.dispose();
      material.dispose();
      staging.dispose();
    },
  };
}
