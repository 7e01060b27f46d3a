import * as THREE from 'three';
import { AppError } from '../../../lib/errors.ts';
import { motionKey } from '../../plan/animate.ts';
import { coversFrame, overlayRect, type Rect } from '../../plan/composite-plan.ts';
import { type DirtyRect, layerBox } from '../../plan/dirty-rects.ts';
import type { LayerState } from '../../plan/frame-state.ts';
import type { TextureRef, TransitionType } from '../../plan/plan.ts';
import { blendOverlay, overlayFromRgba, type YuvOverlay, yuvaFromRgba } from './backdrop-blend.ts';
import { createEffectLayer, type EffectLayer } from './effects-shader.ts';
import { createImageMaterial } from './image-material.ts';
import { placeMesh } from './motion-mesh.ts';
import { createRectReadback } from './rect-readback.ts';
import { TRANSITION_FRAGMENT_SHADER, TRANSITION_VERTEX_SHADER, transitionKind } from './transition-shader.ts';
import { createVideoMaterial, dataTexture, type VideoMaterial } from './video-material.ts';
import {
  regionAttributes,
  YUV_FRAGMENT_SHADER,
  YUV_REGION_FRAGMENT_SHADER,
  YUV_REGION_VERTEX_SHADER,
  YUV_VERTEX_SHADER,
  type YuvLayout,
  yuvLayout,
  yuvRegions,
} from './yuv-layout.ts';

/** The scene coming in during a transition, drawn with the outgoing one and blended by `type`. */
interface IncomingScene {
  background: [number, number, number];
  layers: LayerState[];
  type: TransitionType;
  progress: number;
}

/**
 * Where the frame graph draws and what it draws from: the seams between the worker and the browser
 * player (player/). The worker's host (worker-host.ts) is headless-gl's context on the drawing
 * backend, with texture files on disk; the player's is the page canvas's WebGL 2 context, with the
 * preview's textures fetched before they are drawn. A clip's frame comes as its layer state's
 * `pixels` either way (the worker's from ffmpeg, the player's from <video>: player/src/clips.ts).
 */
export interface FrameHost {
  /** The WebGL 2 context every pass draws with (headless-gl's, or a page canvas's `webgl2`). */
  context: NonNullable<THREE.WebGLRendererParameters['context']>;
  /** The canvas of `context` when it is a page's: `draw(..., 'canvas')` draws onto it. */
  canvas?: THREE.WebGLRendererParameters['canvas'] | undefined;
  /** A texture's bytes (TextureRef: raw RGBA8, rows top to bottom, straight alpha), ready now. */
  textureBytes(ref: TextureRef): Uint8Array;
}

export interface FrameRenderer {
  layout: YuvLayout;
  /**
   * Draws one whole frame as RGBA, with no dirty rectangles, no clip backdrop and no YUV pass: the
   * browser player's path (player/). Into the scene target (`readRgba` reads it), or with
   * `onto: 'canvas'` straight onto the host's canvas (a page's), the same passes with the canvas
   * as their last target.
   */
  draw(
    background: [number, number, number],
    layers: LayerState[],
    incoming?: IncomingScene,
    onto?: 'scene' | 'canvas',
  ): void;
  /**
   * The RGBA bytes of the frame just drawn, rows bottom-up (GL's order): of the scene target, or of
   * the canvas (read in the same task as its `draw`, before the page shows it). The worker and the
   * player read the same way, so their frames compare byte for byte (test/player/fidelity.test.ts).
   * The returned view is overwritten by the next call.
   */
  readRgba(from?: 'scene' | 'canvas'): Uint8Array;
  /**
   * Draws one frame and returns its yuv420p bytes. The returned view aliases the one readback
   * buffer and is overwritten by the next call. With `rects` (dirty-rects.ts: columns multiples of
   * 8, rows of 4, aligned layouts only) only those rectangles are drawn, converted and read back;
   * the rest of the buffer keeps the previous frame, which must be the frame drawn just before.
   */
  render(
    background: [number, number, number],
    layers: LayerState[],
    rects?: DirtyRect[],
    incoming?: IncomingScene,
  ): Uint8Array;
  /**
   * One layer alone within `rect`, as straight-alpha yuva420p (an overlay image for a chunk
   * composited by ffmpeg: worker/plan/composite-plan.ts, backdrop-blend.ts yuvaFromRgba). The returned view
   * is overwritten by the next call.
   */
  layerImage(layer: LayerState, rect: Rect): Uint8Array;
  /**
   * One frame of a movie that keeps alpha (plan.alpha: mov or webm, every background transparent),
   * drawn whole on transparent black, as straight-alpha yuva420p (planes Y, U, V, A:
   * backdrop-blend.ts yuvaFromRgba). Never the backdrop path: a clip is drawn by GL as any layer.
   * The returned view is overwritten by the next call.
   */
  renderAlpha(layers: LayerState[], incoming?: IncomingScene): Uint8Array;
  /** Frees textures that the given layers no longer need (called at scene changes). */
  retain(layerIds: Set<number>): void;
  dispose(): void;
}

// three.js only touches these members of a canvas when it is handed a ready context.
function fakeCanvas(width: number, height: number): THREE.WebGLRendererParameters['canvas'] {
  return {
    width,
    height,
    style: {},
    addEventListener() {},
    removeEventListener() {},
  } as unknown as THREE.WebGLRendererParameters['canvas'];
}

/**
 * three.js r187 on headless-gl (WebGL 2). The scene is drawn into a render target with a y-down
 * orthographic camera in output pixels, then a full-screen pass converts it to yuv420p bytes. Made
 * of four parts, each a function below: the GL pipeline (context, targets, the YUV pass), the
 * layers' meshes, the transitions' targets, and the drawing into part of the frame.
 */
export function createFrameRenderer(
  width: number,
  height: number,
  host: FrameHost,
  /** `backdrop: false` turns the full-frame clip path off (tests compare the two). */
  options: { backdrop?: boolean } = {},
): FrameRenderer {
  const p = glPipeline(width, height, host);
  const { layout, renderer, sceneTarget, yuvTarget, camera, scene, yuvScene, yuvCamera, readback, frame } = p;
  const layerMeshes = createLayerMeshes(p, host);
  const { show } = layerMeshes;
  const transitions = createTransitions(width, height);
  const parts = createPartialDrawing(p, layerMeshes, transitions);
  const { background, drawRect, drawOverlay, blendTransition, drawTransitionAlpha, drawRects } = parts;

  /**
   * The bottom layer when it is a clip covering the whole frame, opaque and unmoved, whose decoded
   * bytes are exactly the frame's (yuv420p, BT.709 limited range, the packed layout).
   */
  function backdrop(layers: LayerState[]): LayerState | undefined {
    const s = layers[0];
    if (options.backdrop === false || !s?.pixels || !layout.aligned) return undefined;
    return coversFrame(s, width, height) ? s : undefined;
  }

  /**
   * One whole frame into the scene target: its layers on its background or, in a transition, both
   * scenes whole, each on its own background, then one blending pass.
   */
  function drawWhole(
    bg: [number, number, number],
    layers: LayerState[],
    incoming: IncomingScene | undefined,
    /** null: the host's canvas. */
    target: THREE.WebGLRenderTarget | null = sceneTarget,
  ): void {
    if (!incoming) {
      show(layers);
      renderer.setClearColor(background.setRGB(bg[0] / 255, bg[1] / 255, bg[2] / 255), 1);
      if (target) target.scissorTest = false;
      renderer.setRenderTarget(target);
      renderer.render(scene, camera);
      return;
    }
    const pair = transitions.pair();
    for (const [t, over, colour] of [
      [pair.a, layers, bg],
      [pair.b, incoming.layers, incoming.background],
    ] as const) {
      show(over);
      renderer.setClearColor(background.setRGB(colour[0] / 255, colour[1] / 255, colour[2] / 255), 1);
      t.scissorTest = false;
      renderer.setRenderTarget(t);
      renderer.render(scene, camera);
    }
    blendTransition(incoming, target);
  }

  /** Over a backdrop clip: each layer's last overlay, by layer id, with the state it was drawn in. */
  const overlays = new Map<number, { key: string; yuv: YuvOverlay | undefined }>();
  let imageBuffer: Uint8Array | undefined;
  let alphaFrame: Uint8Array | undefined;
  let rgbaFrame: Uint8Array | undefined;

  return {
    layout,
    draw(bg, layers, incoming, onto = 'scene') {
      drawWhole(bg, layers, incoming, onto === 'canvas' ? null : sceneTarget);
      renderer.setRenderTarget(null);
    },
    readRgba(from = 'scene') {
      if (!rgbaFrame) rgbaFrame = new Uint8Array(width * height * 4);
      if (from === 'canvas') {
        renderer.setRenderTarget(null);
        p.gl.readPixels(0, 0, width, height, p.gl.RGBA, p.gl.UNSIGNED_BYTE, rgbaFrame);
        return rgbaFrame;
      }
      renderer.readRenderTargetPixels(sceneTarget, 0, 0, width, height, rgbaFrame);
      renderer.setRenderTarget(null);
      return rgbaFrame;
    },
    render(bg, layers, rects, incoming) {
      const under = incoming ? undefined : backdrop(layers);
      if (under) {
        // A full-frame BT.709 clip at the bottom: its planes are the frame's bytes already. The
        // layers over it are drawn by GL only when they change, and blended in on the CPU.
        frame.set(under.pixels!);
        // Each layer over it is drawn by GL when it changes (a caption's next word, a sliding title)
        // and blended in on the CPU, in draw order.
        for (const s of layers.slice(1)) {
          const key = `${s.x},${s.y},${s.scale},${s.opacity},${s.content ?? ''}${motionKey(s)}`;
          let cached = overlays.get(s.layer);
          if (cached?.key !== key) {
            cached = { key, yuv: drawOverlay([s]) };
            overlays.set(s.layer, cached);
          }
          if (cached.yuv) blendOverlay(frame, width, height, cached.yuv);
        }
        return frame;
      }
      if (!incoming && rects?.length && layout.aligned) {
        show(layers);
        renderer.setClearColor(background.setRGB(bg[0] / 255, bg[1] / 255, bg[2] / 255), 1);
        if (drawRects(layers, rects)) return frame;
      }
      drawWhole(bg, layers, incoming);
      yuvTarget.scissorTest = false;
      renderer.setRenderTarget(yuvTarget);
      renderer.render(yuvScene, yuvCamera);
      renderer.readRenderTargetPixels(yuvTarget, 0, 0, layout.targetWidth, layout.targetHeight, readback);
      renderer.setRenderTarget(null);
      return frame;
    },
    renderAlpha(layers, incoming) {
      const area = width * height;
      if (!alphaFrame) alphaFrame = new Uint8Array((area * 5) / 2);
      // Transparent black first: yuvaFromRgba leaves fully transparent pixels as they are.
      alphaFrame.fill(16, 0, area);
      alphaFrame.fill(128, area, (area * 3) / 2);
      alphaFrame.fill(0, (area * 3) / 2);
      const rgba = incoming
        ? drawTransitionAlpha(layers, incoming)
        : drawRect(layers, { x0: 0, y0: 0, width, y1: height });
      return yuvaFromRgba(rgba, width, height, alphaFrame, { x: 0, y: 0, outWidth: width, outRows: height });
    },
    layerImage(s, rect) {
      const rows = rect.y1 - rect.y0;
      const area = rect.width * rows;
      if (!imageBuffer || imageBuffer.length < (area * 5) / 2) imageBuffer = new Uint8Array((area * 5) / 2);
      const out = imageBuffer.subarray(0, (area * 5) / 2);
      // Transparent, then the layer's own rectangle (a part of `rect`, which covers all its states).
      out.fill(16, 0, area);
      out.fill(128, area, (area * 3) / 2);
      out.fill(0, (area * 3) / 2);
      const own = overlayRect([s], width, height);
      if (!own) return out;
      const x0 = Math.max(own.x0, rect.x0);
      const y0 = Math.max(own.y0, rect.y0);
      const x1 = Math.min(own.x0 + own.width, rect.x0 + rect.width);
      const y1 = Math.min(own.y1, rect.y1);
      if (x1 <= x0 || y1 <= y0) return out;
      const part = { x0, y0, width: x1 - x0, y1 };
      return yuvaFromRgba(drawRect([s], part), part.width, y1 - y0, out, {
        x: x0 - rect.x0,
        y: y0 - rect.y0,
        outWidth: rect.width,
        outRows: rows,
      });
    },
    retain(keep) {
      for (const id of layerMeshes.retain(keep)) overlays.delete(id);
    },
    dispose() {
      this.retain(new Set());
      transitions.dispose();
      sceneTarget.dispose();
      yuvTarget.dispose();
      parts.rectReadback.dispose();
      for (const m of p.materials) m.dispose();
      // WebGLRenderer.dispose() stops an animation loop that needs a window; free the lists only.
      renderer.renderLists.dispose();
      p.gl.getExtension('STACKGL_destroy_context')?.destroy();
    },
  };
}

/** The GL context, the scene and YUV targets and cameras, the YUV conversion pass and the readback buffer. */
function glPipeline(width: number, height: number, host: FrameHost) {
  const layout = yuvLayout(width, height);
  const gl = host.context;
  THREE.ColorManagement.enabled = false;
  const renderer = new THREE.WebGLRenderer({
    canvas: host.canvas ?? fakeCanvas(1, 1),
    context: gl,
  });
  renderer.outputColorSpace = THREE.LinearSRGBColorSpace;
  renderer.autoClear = true;
  // three.js only logs shader errors; a render with a broken shader must fail, not emit black frames.
  renderer.debug.onShaderError = (ctx, _program, vs, fs) => {
    const log = `${ctx.getShaderInfoLog(vs) ?? ''} ${ctx.getShaderInfoLog(fs) ?? ''}`.trim();
    throw new AppError('RENDER_FAILED', `A shader failed to compile: ${log}`);
  };

  const sceneTarget = new THREE.WebGLRenderTarget(width, height, {
    minFilter: THREE.NearestFilter,
    magFilter: THREE.NearestFilter,
    depthBuffer: false,
    generateMipmaps: false,
  });
  const yuvTarget = new THREE.WebGLRenderTarget(layout.targetWidth, layout.targetHeight, {
    minFilter: THREE.NearestFilter,
    magFilter: THREE.NearestFilter,
    depthBuffer: false,
    generateMipmaps: false,
  });
  // top=0, bottom=height: y grows downwards like the document's coordinates (the flip is free).
  const camera = new THREE.OrthographicCamera(0, width, 0, height, -1, 1);
  const scene = new THREE.Scene();

  const yuvScene = new THREE.Scene();
  const yuvCamera = new THREE.OrthographicCamera(-1, 1, 1, -1, -1, 1);
  const materials: THREE.Material[] = [];
  if (layout.aligned) {
    // Five rectangles with affine texture coordinates, in one draw: the cheap path on llvmpipe.
    const material = new THREE.RawShaderMaterial({
      vertexShader: YUV_REGION_VERTEX_SHADER,
      fragmentShader: YUV_REGION_FRAGMENT_SHADER,
      uniforms: {
        src: { value: sceneTarget.texture },
        size: { value: new THREE.Vector2(width, height) },
        targetSize: { value: new THREE.Vector2(layout.targetWidth, layout.targetHeight) },
      },
      depthTest: false,
      depthWrite: false,
    });
    const q = regionAttributes(yuvRegions(layout));
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(q.position, 3));
    geometry.setAttribute('source', new THREE.BufferAttribute(q.source, 2));
    geometry.setAttribute('step', new THREE.BufferAttribute(q.step, 1));
    geometry.setAttribute('coeff', new THREE.BufferAttribute(q.coeff, 4));
    geometry.setIndex(new THREE.BufferAttribute(q.index, 1));
    const mesh = new THREE.Mesh(geometry, material);
    mesh.frustumCulled = false;
    yuvScene.add(mesh);
    materials.push(material);
  } else {
    // Any other even size: one pass that maps every output byte to its plane and sample.
    const material = new THREE.RawShaderMaterial({
      vertexShader: YUV_VERTEX_SHADER,
      fragmentShader: YUV_FRAGMENT_SHADER,
      uniforms: {
        src: { value: sceneTarget.texture },
        size: { value: new THREE.Vector2(width, height) },
        targetWidth: { value: layout.targetWidth },
      },
      depthTest: false,
      depthWrite: false,
    });
    const mesh = new THREE.Mesh(new THREE.PlaneGeometry(2, 2), material);
    mesh.frustumCulled = false;
    yuvScene.add(mesh);
    materials.push(material);
  }

  const readback = new Uint8Array(layout.targetWidth * layout.targetHeight * 4);
  const frame = readback.subarray(0, layout.frameBytes);
  return {
    gl,
    renderer,
    layout,
    sceneTarget,
    yuvTarget,
    camera,
    scene,
    yuvScene,
    yuvCamera,
    materials,
    readback,
    frame,
  };
}

type GlPipeline = ReturnType<typeof glPipeline>;

/**
 * The layers' textures by file, each uploaded once (its CPU bytes dropped then) and knowing its
 * file (`userData.file`: a zoomed layer's material changes texture, frame-state.ts textureAt).
 */
function createTextures(host: FrameHost) {
  const textures = new Map<string, THREE.DataTexture>();
  function textureFor(ref: TextureRef): THREE.DataTexture {
    let tex = textures.get(ref.file);
    if (!tex) {
      const bytes = host.textureBytes(ref);
      if (bytes.length !== ref.width * ref.height * 4) {
        throw new AppError(
          'RENDER_FAILED',
          `Texture ${ref.file} has ${bytes.length} bytes, expected ${ref.width}x${ref.height}x4`,
        );
      }
      const made = dataTexture(
        new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length),
        ref.width,
        ref.height,
        THREE.RGBAFormat,
      );
      made.needsUpdate = true;
      made.userData.file = ref.file;
      // Once uploaded, the GL copy is all we need: drop the CPU bytes so memory follows the GPU.
      made.onUpdate = () => {
        (made.image as unknown as { data: Uint8Array | null }).data = null;
      };
      textures.set(ref.file, made);
      tex = made;
    }
    return tex;
  }
  return { textures, textureFor };
}

/** Each layer's mesh (its texture, video planes or effect material), made when first shown. */
function createLayerMeshes(p: GlPipeline, host: FrameHost) {
  const { renderer, scene } = p;
  const { textures, textureFor } = createTextures(host);
  const meshes = new Map<number, THREE.Mesh<THREE.BufferGeometry, THREE.ShaderMaterial>>();
  /** Video layers' materials, by layer id. */
  const videos = new Map<number, VideoMaterial>();
  /** Layers with effects: their material (and background mesh), by layer id. */
  const effectLayers = new Map<number, EffectLayer>();

  function meshFor(s: LayerState): THREE.Mesh<THREE.BufferGeometry, THREE.ShaderMaterial> {
    let mesh = meshes.get(s.layer);
    if (!mesh) {
      const { width: w, height: h } = s;
      const u0 = s.crop ? s.crop.x0 / s.texture.width : 0;
      const u1 = s.crop ? s.crop.x1 / s.texture.width : 1;
      const v0 = s.crop ? s.crop.y0 / s.texture.height : 0;
      const v1 = s.crop ? s.crop.y1 / s.texture.height : 1;
      const geometry = new THREE.BufferGeometry();
      // Centred quad, y down; texture row 0 (v = 0) is the image's top row.
      geometry.setAttribute(
        'position',
        new THREE.Float32BufferAttribute([-w / 2, -h / 2, 0, w / 2, -h / 2, 0, -w / 2, h / 2, 0, w / 2, h / 2, 0], 3),
      );
      geometry.setAttribute('uv', new THREE.Float32BufferAttribute([u0, v0, u1, v0, u0, v1, u1, v1], 2));
      geometry.setIndex([0, 2, 1, 2, 3, 1]);
      let material: THREE.ShaderMaterial;
      if (s.pixels) {
        const video = createVideoMaterial(s.texture.width, s.texture.height, s.matrix ?? 'bt601');
        videos.set(s.layer, video);
        material = video.material;
      } else {
        material = createImageMaterial(textureFor(s.texture));
      }
      const fx = s.effects && effectLayerFor(s);
      if (fx) {
        if (!s.pixels) material.dispose();
        material = fx.material;
      }
      mesh = new THREE.Mesh(geometry, material);
      if (fx?.background) mesh.add(fx.background);
      mesh.renderOrder = s.layer;
      mesh.frustumCulled = false;
      meshes.set(s.layer, mesh);
      scene.add(mesh);
    }
    return mesh;
  }

  function effectLayerFor(s: LayerState): EffectLayer {
    const video = videos.get(s.layer);
    const source = video
      ? { kind: 'yuv' as const, planes: video.planes, matrix: s.matrix ?? 'bt601' }
      : { kind: 'rgba' as const, map: textureFor(s.texture) };
    const fx = createEffectLayer(source, s.effects!, s.width, s.height, s.layer);
    effectLayers.set(s.layer, fx);
    return fx;
  }

  /**
   * An animated image's frame (frame-state.ts gives its file as the layer's texture): uploaded into
   * the one texture the layer's material reads (a plain image's map, or an effect material's), so
   * whatever samples it sees the new frame. What each texture holds, by texture.
   */
  const framesHeld = new WeakMap<THREE.Texture, string>();
  function showFrame(s: LayerState, mesh: THREE.Mesh<THREE.BufferGeometry, THREE.Material>): void {
    const m = mesh.material as THREE.Material & {
      map?: THREE.Texture | null;
      uniforms?: Record<string, THREE.IUniform>;
    };
    const tex = (m.map ?? m.uniforms?.map?.value) as THREE.DataTexture | undefined;
    if (!tex) return;
    // A texture seen for the first time was just made from this very frame (meshFor).
    if (!framesHeld.has(tex)) framesHeld.set(tex, s.texture.file);
    if (framesHeld.get(tex) === s.texture.file) return;
    const bytes = host.textureBytes(s.texture);
    const data = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
    (tex.image as unknown as { data: Uint8Array | null }).data = data;
    tex.needsUpdate = true;
    framesHeld.set(tex, s.texture.file);
  }

  /**
   * A picture layer's texture in this frame: a text or shape zoomed above 1 has sharper copies of
   * its raster (frame-state.ts picks the one for its scale), each a texture of its own.
   */
  function showTexture(s: LayerState, mesh: THREE.Mesh<THREE.BufferGeometry, THREE.ShaderMaterial>): void {
    const map = mesh.material.uniforms.map;
    if (map && (map.value as THREE.Texture | null)?.userData.file !== s.texture.file) map.value = textureFor(s.texture);
  }

  /** Makes exactly `list`'s meshes visible, placed, faded and with their current video frame. */
  const show = (list: LayerState[]) => {
    for (const mesh of meshes.values()) mesh.visible = false;
    for (const s of list) {
      const mesh = meshFor(s);
      const video = videos.get(s.layer);
      // Placed first: a soft edge (motion-mesh.ts) makes a clip blended.
      const soft = placeMesh(mesh, s, p.sceneTarget);
      if (video && s.pixels) {
        video.update(s.pixels, s.content);
        video.setOpacity(s.opacity, soft);
      } else mesh.material.uniforms.opacity!.value = s.opacity;
      if (s.content !== undefined && !s.pixels) showFrame(s, mesh);
      else if (!s.pixels && !effectLayers.has(s.layer)) showTexture(s, mesh);
      mesh.visible = true;
      effectLayers.get(s.layer)?.update(renderer, s.opacity, s.scale, s.content);
    }
  };

  /** Frees the meshes and textures of every layer not in `keep`; returns the ids of those freed. */
  function retain(keep: Set<number>): number[] {
    const files = new Set<string>();
    const freed: number[] = [];
    for (const [id, mesh] of meshes) {
      if (keep.has(id)) {
        const map = effectLayers.get(id)?.map ?? mesh.material.uniforms.map?.value;
        if (map) for (const [f, t] of textures) if (t === map) files.add(f);
        continue;
      }
      scene.remove(mesh);
      mesh.geometry.dispose();
      mesh.material.dispose();
      videos.get(id)?.dispose();
      videos.delete(id);
      effectLayers.get(id)?.dispose();
      effectLayers.delete(id);
      meshes.delete(id);
      freed.push(id);
    }
    for (const [f, t] of textures) {
      if (!files.has(f)) {
        t.dispose();
        textures.delete(f);
      }
    }
    return freed;
  }
  return { meshes, videos, show, retain };
}

type LayerMeshes = ReturnType<typeof createLayerMeshes>;

/** A transition's two scene targets and its blending pass, made at the first transition. */
function createTransitions(width: number, height: number) {
  // Transitions: each scene drawn into a target of its own, then blended into the scene target.
  let pair:
    | { a: THREE.WebGLRenderTarget; b: THREE.WebGLRenderTarget; scene: THREE.Scene; material: THREE.RawShaderMaterial }
    | undefined;
  const transitionPair = () => {
    if (pair) return pair;
    const target = () =>
      new THREE.WebGLRenderTarget(width, height, {
        minFilter: THREE.NearestFilter,
        magFilter: THREE.NearestFilter,
        depthBuffer: false,
        generateMipmaps: false,
      });
    const a = target();
    const b = target();
    const material = new THREE.RawShaderMaterial({
      vertexShader: TRANSITION_VERTEX_SHADER,
      fragmentShader: TRANSITION_FRAGMENT_SHADER,
      uniforms: { a: { value: a.texture }, b: { value: b.texture }, progress: { value: 0 }, kind: { value: 0 } },
      depthTest: false,
      depthWrite: false,
    });
    const mesh = new THREE.Mesh(new THREE.PlaneGeometry(2, 2), material);
    mesh.frustumCulled = false;
    const blend = new THREE.Scene();
    blend.add(mesh);
    pair = { a, b, scene: blend, material };
    return pair;
  };
  return {
    pair: transitionPair,
    dispose() {
      if (!pair) return;
      pair.a.dispose();
      pair.b.dispose();
      pair.material.dispose();
    },
  };
}

type Transitions = ReturnType<typeof createTransitions>;

/** Drawing into part of the scene target (a rectangle, the dirty rectangles, a transition on transparent black) and reading it back. */
function createPartialDrawing(p: GlPipeline, layerMeshes: LayerMeshes, transitions: Transitions) {
  const { layout, renderer, sceneTarget, camera, scene, yuvCamera, frame } = p;
  const width = sceneTarget.width;
  const height = sceneTarget.height;
  const { meshes, show } = layerMeshes;
  const transitionPair = transitions.pair;
  const background = new THREE.Color();
  let overlayBuffer: Uint8Array | undefined;
  /** Draws `over` onto transparent black within `rect` and reads it back: premultiplied RGBA, rows bottom-up. */
  function drawRect(over: LayerState[], rect: Rect): Uint8Array {
    const rows = rect.y1 - rect.y0;
    show(over);
    renderer.setClearColor(background.setRGB(0, 0, 0), 0);
    sceneTarget.scissor.set(rect.x0, height - rect.y1, rect.width, rows);
    sceneTarget.scissorTest = true;
    renderer.setRenderTarget(sceneTarget);
    renderer.render(scene, camera);
    const bytes = rect.width * rows * 4;
    if (!overlayBuffer || overlayBuffer.length < bytes) overlayBuffer = new Uint8Array(bytes);
    const rgba = overlayBuffer.subarray(0, bytes);
    renderer.readRenderTargetPixels(sceneTarget, rect.x0, height - rect.y1, rect.width, rows, rgba);
    renderer.setRenderTarget(null);
    return rgba;
  }
  /** The layers drawn onto transparent black, read back premultiplied over the rectangle they cover. */
  function drawOverlay(over: LayerState[]): YuvOverlay | undefined {
    const rect = overlayRect(over, width, height);
    return rect && overlayFromRgba(drawRect(over, rect), rect, width);
  }
  /** Blends a transition's two scene targets (drawn already) into `target` (the scene target; null: the canvas). */
  function blendTransition(incoming: IncomingScene, target: THREE.WebGLRenderTarget | null = sceneTarget): void {
    const p = transitionPair();
    p.material.uniforms.progress!.value = incoming.progress;
    p.material.uniforms.kind!.value = transitionKind(incoming.type);
    if (target) target.scissorTest = false;
    renderer.setRenderTarget(target);
    renderer.render(p.scene, yuvCamera);
  }
  /** A transition's two scenes, each on transparent black, blended into the scene target and read back premultiplied. */
  function drawTransitionAlpha(layers: LayerState[], incoming: IncomingScene): Uint8Array {
    const p = transitionPair();
    renderer.setClearColor(background.setRGB(0, 0, 0), 0);
    for (const [target, over] of [
      [p.a, layers],
      [p.b, incoming.layers],
    ] as const) {
      show(over);
      target.scissorTest = false;
      renderer.setRenderTarget(target);
      renderer.render(scene, camera);
    }
    blendTransition(incoming);
    const bytes = width * height * 4;
    if (!overlayBuffer || overlayBuffer.length < bytes) overlayBuffer = new Uint8Array(bytes);
    const rgba = overlayBuffer.subarray(0, bytes);
    renderer.readRenderTargetPixels(sceneTarget, 0, 0, width, height, rgba);
    renderer.setRenderTarget(null);
    return rgba;
  }

  const rectReadback = createRectReadback(renderer, sceneTarget.texture, layout);
  /**
   * Redraws only `rects` of the frame in `readback` (the frame drawn just before): each is drawn
   * with the layers that reach into it (scissored), then all are converted and read back into
   * place (rect-readback.ts). False, drawing nothing, when they do not fit its staging target.
   */
  function drawRects(layers: LayerState[], rects: DirtyRect[]): boolean {
    const staged = rectReadback.stage(rects);
    if (!staged) return false;
    const boxes = layers.map((s) => ({ mesh: meshes.get(s.layer)!, box: layerBox(s) }));
    sceneTarget.scissorTest = true;
    for (const r of rects) {
      for (const { mesh, box } of boxes)
        mesh.visible = box.x0 < r.x1 && box.x1 > r.x0 && box.y0 < r.y1 && box.y1 > r.y0;
      // The scene target has image row r at GL row height-1-r (y-down camera).
      sceneTarget.scissor.set(r.x0, height - r.y1, r.x1 - r.x0, r.y1 - r.y0);
      renderer.setRenderTarget(sceneTarget);
      renderer.render(scene, camera);
    }
    sceneTarget.scissorTest = false;
    rectReadback.read(staged, frame);
    return true;
  }

  return { background, drawRect, drawOverlay, blendTransition, drawTransitionAlpha, drawRects, rectReadback };
}
