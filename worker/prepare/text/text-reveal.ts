/**
 * Word-by-word and letter-by-letter reveals (`textAnimation`). The text is laid out and drawn
 * once (text-raster.ts rasteriseTextUnits); each unit, a word or a grapheme cluster, becomes a
 * layer that draws its rectangles of that one texture (`crop`) with a keyframe track of its own:
 * fade, rise or typewriter, `stagger` seconds after the unit before it. The pieces tile the
 * raster, so once every unit is shown the frame is the text's ordinary one. The element's own
 * motion applies to the pieces as one picture (worker/plan/animate.ts, `unit`).
 */
import { type Easing, easingOf } from '../../../movie/easing.ts';
import type { MotionKey, MotionTrack } from '../../../movie/motion.ts';
import type { LayerPlan } from '../../plan/plan.ts';
import type { TextUnitsRaster } from './text-raster.ts';

export interface TextAnimationSpec {
  unit: 'word' | 'letter';
  style: 'fade' | 'rise' | 'typewriter';
  stagger?: number | undefined;
  duration?: number | undefined;
  start?: number | undefined;
  easing?: string | undefined;
}

const DEFAULT_STAGGER_SEC = 0.05;
const DEFAULT_UNIT_SEC = 0.3;
/** A rising unit starts this fraction of the font size below its place. */
const RISE_EM = 0.5;

const APPEAR: Easing = Object.freeze({ kind: 'steps', steps: 1, position: 'jump-start' });

/** The track of unit `i`: seconds from the element's start. */
export function unitTracks(spec: TextAnimationSpec, i: number, fontSize: number): MotionTrack[] {
  const at = (spec.start ?? 0) + i * (spec.stagger ?? DEFAULT_STAGGER_SEC);
  if (spec.style === 'typewriter') {
    // Shown from its instant on: one jump at the segment's start.
    return [
      {
        property: 'opacity',
        keys: [
          { sec: at, value: 0, easing: APPEAR },
          { sec: at + 1, value: 1, easing: APPEAR },
        ],
      },
    ];
  }
  const duration = spec.duration ?? DEFAULT_UNIT_SEC;
  const easing = easingOf(spec.easing ?? 'ease-out');
  const keys = (from: number, to: number): MotionKey<number>[] => [
    { sec: at, value: from, easing },
    { sec: at + duration, value: to, easing },
  ];
  const tracks: MotionTrack[] = [{ property: 'opacity', keys: keys(0, 1) }];
  if (spec.style === 'rise') tracks.push({ property: 'dy', keys: keys(RISE_EM * fontSize, 0) });
  return tracks;
}

/**
 * The layers of a revealed text: `base` is the layer the text would have been (its texture the
 * whole raster), one layer per rectangle of each unit, in reading order.
 */
function textRevealLayers(base: LayerPlan, r: TextUnitsRaster, spec: TextAnimationSpec): LayerPlan[] {
  const group = { x: base.x, y: base.y, width: base.width, height: base.height, startSec: base.startSec };
  const out: LayerPlan[] = [];
  r.units.forEach((rects, i) => {
    const tracks = unitTracks(spec, i, r.raster.fontSize);
    for (const c of rects) {
      out.push({
        ...base,
        crop: c,
        x: base.x + c.x0,
        y: base.y + c.y0,
        width: c.x1 - c.x0,
        height: c.y1 - c.y0,
        unit: { ...group, tracks },
      });
    }
  });
  return out;
}

/** The text's layers: the whole raster as one layer, or its units when it is revealed. */
export function textLayers(
  base: LayerPlan,
  reveal: TextUnitsRaster | undefined,
  spec: TextAnimationSpec | undefined,
): LayerPlan[] {
  return reveal && spec ? textRevealLayers(base, reveal, spec) : [base];
}
