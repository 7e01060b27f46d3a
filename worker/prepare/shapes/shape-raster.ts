/**
 * Shape elements (movie/v1/shape.ts) rasterised once, at the size they are drawn, by Skia
 * (CanvasKit, which the text engine already loads: worker/prepare/text/canvaskit.ts): anti-aliased fills,
 * linear and radial gradients, strokes and dashes, SVG path data. The raster is a texture the GPU
 * renderer draws like an image's, so a shape moves, scales and fades with the same layer machinery
 * and is composited over a clip like any still layer. A shape's size is fixed for its element
 * (scale animations scale the drawn quad), so it is drawn once per render, and again with more
 * texels when an animation zooms it above 1 (`scale`: worker/prepare/zoom-rasters.ts).
 */
import type { Canvas, CanvasKit, Paint, Path, Shader } from 'canvaskit-wasm';
import { AppError } from '../../../lib/errors.ts';
import type { ShapeElementV1 } from '../../../movie/v1/schema.ts';
import { DEFAULT_GRADIENT_ANGLE, DEFAULT_SHAPE_FILL } from '../../../movie/v1/shape.ts';
import { parseColor } from '../../plan/color.ts';
import { canvasKit, readRgba } from '../text/canvaskit.ts';
import type { Raster } from '../text/text-raster.ts';
import { zoomedSize } from '../zoom-rasters.ts';

type Fill = NonNullable<ShapeElementV1['fill']>;

/** A drawn shape: its box's size, and where the raster (box plus the stroke outside it) sits. */
export interface ShapeRaster extends Raster {
  boxWidth: number;
  boxHeight: number;
  /** The raster's top-left relative to the box's top-left (negative: stroke outside the box). */
  offsetX: number;
  offsetY: number;
}

/**
 * Draws `el` into a box of `boxWidth` x `boxHeight` output pixels (the document's box scaled for a
 * draft; `docWidth` x `docHeight` is the box in document pixels, which coordinates refer to).
 * Straight-alpha RGBA, as textures are. With `scale`, the same raster (its box, offsets and
 * padding in output pixels) drawn with that many times the texels on each side (zoomedSize).
 */
export async function rasteriseShape(
  el: ShapeElementV1,
  box: { docWidth: number; docHeight: number; boxWidth: number; boxHeight: number },
  path: string,
  scale = 1,
): Promise<ShapeRaster> {
  const ck = await canvasKit();
  const sx = box.boxWidth / box.docWidth;
  const sy = box.boxHeight / box.docHeight;
  const strokeWidth = el.stroke?.width ?? 0;
  // Room for the stroke outside the box: half its width, twice that at a sharp mitred corner.
  const pad = strokeWidth > 0 ? Math.ceil(2 * strokeWidth * Math.max(sx, sy)) + 1 : 0;
  const drawn = zoomedSize({ width: box.boxWidth + 2 * pad, height: box.boxHeight + 2 * pad }, scale);
  const w = drawn.width;
  const h = drawn.height;
  const surface = ck.MakeSurface(w, h);
  if (!surface) throw new AppError('RENDER_FAILED', `Could not make a ${w}x${h} surface for a shape`, { path });
  const owned: { delete(): void }[] = [];
  const keep = <T extends { delete(): void }>(o: T): T => {
    owned.push(o);
    return o;
  };
  try {
    const canvas = surface.getCanvas();
    canvas.clear(ck.TRANSPARENT);
    if (scale !== 1) canvas.scale(w / (box.boxWidth + 2 * pad), h / (box.boxHeight + 2 * pad));
    canvas.translate(pad, pad);
    canvas.scale(sx, sy);
    const outline = outlineOf(ck, el, box.docWidth, box.docHeight, path);
    if (outline) keep(outline);
    const fill = el.shape === 'line' ? undefined : (el.fill ?? (el.stroke ? undefined : DEFAULT_SHAPE_FILL));
    if (fill !== undefined) {
      const paint = keep(new ck.Paint());
      paint.setAntiAlias(true);
      paint.setStyle(ck.PaintStyle.Fill);
      setFill(ck, paint, fill, box.docWidth, box.docHeight, keep);
      draw(ck, canvas, el, outline, box.docWidth, box.docHeight, paint);
    }
    if (el.stroke) {
      const paint = keep(new ck.Paint());
      paint.setAntiAlias(true);
      paint.setStyle(ck.PaintStyle.Stroke);
      paint.setStrokeWidth(el.stroke.width);
      paint.setColor(color(ck, el.stroke.color));
      if (el.stroke.dash) {
        // Skia needs an even list; SVG repeats an odd one (5, 3, 2 is 5, 3, 2, 5, 3, 2).
        const dash = el.stroke.dash.length % 2 === 1 ? [...el.stroke.dash, ...el.stroke.dash] : el.stroke.dash;
        paint.setPathEffect(keep(ck.PathEffect.MakeDash(dash, 0)));
      }
      draw(ck, canvas, el, outline, box.docWidth, box.docHeight, paint);
    }
    const img = keep(surface.makeImageSnapshot());
    const px = readRgba(ck, img, w, h);
    if (!px) throw new AppError('RENDER_FAILED', 'Could not read a shape back', { path });
    return {
      data: Buffer.from(px.buffer, px.byteOffset, px.byteLength),
      width: w,
      height: h,
      boxWidth: box.boxWidth,
      boxHeight: box.boxHeight,
      offsetX: -pad,
      offsetY: -pad,
    };
  } finally {
    for (const o of owned.reverse()) o.delete();
    surface.delete();
  }
}

/** The outline of a line, polygon or path (rectangles and ellipses are drawn directly). */
function outlineOf(ck: CanvasKit, el: ShapeElementV1, _w: number, _h: number, path: string): Path | undefined {
  if (el.shape === 'path') {
    const p = ck.Path.MakeFromSVGString(el.d ?? '');
    // Validation has parsed d already; Skia's parser is the final judge.
    if (!p) throw new AppError('VALIDATION_ERROR', 'The path data could not be parsed', { path: `${path}.d` });
    return p;
  }
  if (el.shape === 'line' && el.from && el.to) {
    const b = new ck.PathBuilder();
    b.moveTo(el.from.x, el.from.y);
    b.lineTo(el.to.x, el.to.y);
    return b.detachAndDelete();
  }
  if (el.shape === 'polygon' && el.points) {
    const b = new ck.PathBuilder();
    b.addPolygon(
      el.points.flatMap((p) => [p.x, p.y]),
      true,
    );
    return b.detachAndDelete();
  }
  return undefined;
}

function draw(
  ck: CanvasKit,
  canvas: Canvas,
  el: ShapeElementV1,
  outline: Path | undefined,
  w: number,
  h: number,
  paint: Paint,
): void {
  const rect = ck.XYWHRect(0, 0, w, h);
  const r = Math.min(el.cornerRadius ?? 0, w / 2, h / 2);
  if (outline) canvas.drawPath(outline, paint);
  else if (el.shape === 'ellipse') canvas.drawOval(rect, paint);
  else if (r > 0) canvas.drawRRect(ck.RRectXY(rect, r, r), paint);
  else canvas.drawRect(rect, paint);
}

const color = (ck: CanvasKit, value: string) => {
  const [r, g, b, a] = parseColor(value);
  return ck.Color(r, g, b, a / 255);
};

/**
 * A colour, or a gradient over the box: linear along the CSS angle (0 up, 90 right), its length
 * such that the box's far corners get offsets 0 and 1; radial from the centre to the corners.
 */
function setFill(
  ck: CanvasKit,
  paint: Paint,
  fill: Fill,
  w: number,
  h: number,
  keep: <T extends { delete(): void }>(o: T) => T,
): void {
  if (typeof fill === 'string') {
    paint.setColor(color(ck, fill));
    return;
  }
  const colors = fill.stops.map((s) => color(ck, s.color));
  const positions = fill.stops.map((s) => s.offset);
  const cx = w / 2;
  const cy = h / 2;
  let shader: Shader;
  if (fill.type === 'linear') {
    const a = ((fill.angle ?? DEFAULT_GRADIENT_ANGLE) * Math.PI) / 180;
    const dx = Math.sin(a);
    const dy = -Math.cos(a);
    const half = (Math.abs(w * dx) + Math.abs(h * dy)) / 2;
    shader = ck.Shader.MakeLinearGradient(
      [cx - dx * half, cy - dy * half],
      [cx + dx * half, cy + dy * half],
      colors,
      positions,
      ck.TileMode.Clamp,
    );
  } else {
    // CSS's `ellipse farthest-corner`: the box's proportions, through its corners.
    const rx = (w / 2) * Math.SQRT2;
    shader = ck.Shader.MakeRadialGradient(
      [cx, cy],
      rx,
      colors,
      positions,
      ck.TileMode.Clamp,
      ck.Matrix.scaled(1, h / w, cx, cy),
    );
  }
  paint.setShader(keep(shader));
}
