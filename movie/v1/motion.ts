/**
 * v1 fields of the animation model (movie/motion.ts): `animate` keyframe tracks, the `animation`
 * presets (entry and exit) and a text element's `textAnimation`. Spread into the element schemas
 * of schema.ts; cross-field checks in `motionRule`, run by the element rule.
 *
 * Tracks are per property (`animate: { opacity: [{ time, value, easing }] }`) rather than keyframes
 * holding several properties: each property's range is one JSON Schema node, so a bad value is
 * reported at its own path (`animate.opacity[2].value`) and documented once, and there is no
 * question of what a property missing from a keyframe does between the keyframes that have it.
 */
import { Type } from '@sinclair/typebox';
import { ANIMATION_PRESETS, DEFAULT_ANIMATION_SEC } from '../animations.ts';
import { isPlainObject } from '../describe.ts';
import { EASING_SYNTAX } from '../easing.ts';
import { MOTION_EFFECTS } from '../motion.ts';
import { isDeferred, report, type WalkContext } from '../walk/context.ts';
import { fw, LIMITS, Literals } from './parts.ts';

const PIXELS = LIMITS.pixels;
const MAX_KEYS = 100;
const MAX_VOLUME = LIMITS.volume;
const MAX_SEC = LIMITS.sceneSeconds;

const KeyTime = Type.Union(
  [
    Type.Number({ minimum: 0, maximum: MAX_SEC }),
    Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?%$', ...fw({ patternText: 'a percentage such as "50%"' }) }),
  ],
  {
    description: 'Seconds from the element\'s start, or a percentage of its duration ("50%").',
    ...fw({ expect: 'seconds (a number) or a percentage such as "50%"' }),
  },
);

const EasingText = Type.String({
  maxLength: 100,
  default: 'linear',
  description: `How the segment from this key to the next moves: ${EASING_SYNTAX}.`,
  ...fw({ check: 'easing' }),
});

const Key = (value: ReturnType<typeof Type.Number> | ReturnType<typeof Type.Object>, what: string) =>
  Type.Array(
    Type.Object(
      { time: KeyTime, value, easing: Type.Optional(EasingText) },
      { additionalProperties: false, description: `A key of ${what}.` },
    ),
    {
      minItems: 1,
      maxItems: MAX_KEYS,
      description: `Keys of ${what}, in time order, within the element's time.`,
      ...fw({ emptyCode: 'VALIDATION_ERROR', emptyText: 'give at least one key or drop the property' }),
    },
  );

const Px = (d: string) => Type.Number({ minimum: -PIXELS, maximum: PIXELS, description: d });
const Factor = (d: string, max: number) => Type.Number({ minimum: 0, maximum: max, description: d });

export const CropKey = Type.Object(
  {
    x: Type.Number({ minimum: 0, maximum: PIXELS, description: 'Left, output pixels from the picture’s left edge.' }),
    y: Type.Number({ minimum: 0, maximum: PIXELS, description: 'Top, output pixels from the picture’s top edge.' }),
    width: Type.Number({ minimum: 0, maximum: PIXELS, description: 'Width, output pixels.' }),
    height: Type.Number({ minimum: 0, maximum: PIXELS, description: 'Height, output pixels.' }),
  },
  { additionalProperties: false, description: 'The part of the drawn picture that shows (a mask rectangle).' },
);

const visualTracks = {
  x: Type.Optional(Key(Px('Left edge of the box, output pixels (as position.x).'), 'the left edge')),
  y: Type.Optional(Key(Px('Top edge of the box, output pixels (as position.y).'), 'the top edge')),
  scale: Type.Optional(Key(Factor('Scale about the centre, both axes: 1 as drawn.', 100), 'the scale')),
  scaleX: Type.Optional(Key(Factor('Horizontal scale about the centre.', 100), 'the horizontal scale')),
  scaleY: Type.Optional(Key(Factor('Vertical scale about the centre.', 100), 'the vertical scale')),
  rotation: Type.Optional(
    Key(Type.Number({ minimum: -3600, maximum: 3600, description: 'Degrees, clockwise.' }), 'the rotation'),
  ),
  opacity: Type.Optional(Key(Factor('0 transparent to 1 opaque.', 1), 'the opacity')),
  crop: Type.Optional(Key(CropKey, 'the crop rectangle')),
};
const volumeTrack = {
  volume: Type.Optional(Key(Factor('Linear gain, multiplying the element’s volume.', MAX_VOLUME), 'the sound’s gain')),
};

const animateOptions = (extra: string) => ({
  additionalProperties: false,
  description: `Keyframe tracks, one per property: values between keys follow each key's easing.${extra ? ` ${extra}` : ''}`,
  ...fw({ docName: 'animate' }),
});

const Animate = Type.Object(visualTracks, animateOptions(''));
export const MediaAnimate = Type.Object({ ...visualTracks, ...volumeTrack }, animateOptions('volume: videos only.'));
const AudioAnimate = Type.Object(volumeTrack, animateOptions(''));

const PresetMotion = (which: string) =>
  Type.Object(
    {
      preset: Literals(MOTION_EFFECTS, { description: 'The effect; slides are named by the way the element moves.' }),
      duration: Type.Optional(
        Type.Number({ exclusiveMinimum: 0, maximum: 10, default: DEFAULT_ANIMATION_SEC, description: 'Seconds.' }),
      ),
      easing: Type.Optional({
        ...EasingText,
        default: which === 'in' ? 'ease-out (cubic)' : 'ease-in (cubic)',
        description: `The curve (${EASING_SYNTAX}).`,
      }),
    },
    {
      additionalProperties: false,
      description: which === 'in' ? "Entry: plays from the element's start." : "Exit: ends at the element's end.",
    },
  );

const AnimationField = Type.Object(
  {
    preset: Type.Optional(
      Literals(ANIMATION_PRESETS, {
        description: 'Single entrance (*-in) or exit (*-out) preset. Give either preset or in/out.',
      }),
    ),
    duration: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 10,
        default: DEFAULT_ANIMATION_SEC,
        description: 'Seconds the preset lasts.',
      }),
    ),
    in: Type.Optional(PresetMotion('in')),
    out: Type.Optional(PresetMotion('out')),
  },
  {
    additionalProperties: false,
    description: 'Entry and exit animations of the element (presets, expanded to keyframes).',
    ...fw({ docName: 'animation' }),
  },
);

export const TextAnimation = Type.Object(
  {
    unit: Literals(['word', 'letter'] as const, {
      description: 'What appears one after another: words, or letters (grapheme clusters).',
    }),
    style: Literals(['fade', 'rise', 'typewriter'] as const, {
      description: 'fade in; rise: fade in while moving up half a line; typewriter: appear at once.',
    }),
    stagger: Type.Number({
      minimum: 0,
      maximum: 10,
      default: 0.05,
      description: 'Seconds between one unit starting and the next.',
    }),
    duration: Type.Optional(
      Type.Number({ minimum: 0, maximum: 10, default: 0.3, description: 'Seconds each unit takes to appear.' }),
    ),
    start: Type.Optional(
      Type.Number({ minimum: 0, maximum: MAX_SEC, default: 0, description: "Seconds after the element's start." }),
    ),
    easing: Type.Optional({ ...EasingText, default: 'ease-out', description: `Each unit's curve (${EASING_SYNTAX}).` }),
  },
  {
    additionalProperties: false,
    description: 'Reveals the text word by word or letter by letter.',
    ...fw({ docName: 'textAnimation' }),
  },
);

/** For the docs: a key of a number track (`animate.<property>[i]`) and an entry or exit (`animation.in`). */
export const KeyDoc = Key(Type.Number({ description: 'The value (see the property).' }), 'a property')
  .items as unknown as ReturnType<typeof Type.Object>;
export const PresetMotionDoc = PresetMotion('in');

/** Fields of text and image elements (and what derives from the image element: shapes). */
export const MOTION_FIELDS = { animation: Type.Optional(AnimationField), animate: Type.Optional(Animate) };
export const VIDEO_MOTION_FIELDS = { animation: Type.Optional(AnimationField), animate: Type.Optional(MediaAnimate) };
export const AUDIO_MOTION_FIELDS = { animate: Type.Optional(AudioAnimate) };
export const TEXT_ANIMATION_FIELD = { textAnimation: Type.Optional(TextAnimation) };

const EPSILON = 1e-9;

/**
 * Cross-field checks: `animation` gives either a preset or in/out; keys in time order, inside
 * the element when its duration is known here (an explicit `duration`); percentages at most 100%.
 */
export function motionRule(el: Record<string, unknown>, ctx: WalkContext): void {
  const anim = el.animation;
  if (isPlainObject(anim)) {
    const single = anim.preset !== undefined;
    const pair = anim.in !== undefined || anim.out !== undefined;
    if (single && pair)
      report(ctx, 'VALIDATION_ERROR', 'give either preset (one animation) or in/out, not both', 'animation', 'preset');
    else if (!single && !pair)
      report(ctx, 'SCHEMA_INVALID', 'animation needs preset (one animation), or in and/or out', 'animation', 'preset');
    else if (!single && anim.duration !== undefined)
      report(
        ctx,
        'VALIDATION_ERROR',
        'duration goes with preset; give in.duration / out.duration',
        'animation',
        'duration',
      );
  }
  const animate = el.animate;
  if (!isPlainObject(animate)) return;
  const length = typeof el.duration === 'number' && !isDeferred(ctx, el.duration) ? el.duration : undefined;
  for (const [prop, keys] of Object.entries(animate)) {
    if (!Array.isArray(keys)) continue;
    let prevSec: number | undefined;
    let prevPct: number | undefined;
    keys.forEach((k, i) => {
      if (!isPlainObject(k)) return;
      const time = k.time;
      if (typeof time === 'string' && /^[0-9]+(\.[0-9]+)?%$/.test(time)) {
        const pct = Number.parseFloat(time);
        if (pct > 100) {
          report(ctx, 'VALIDATION_ERROR', `${time} is past the element's end (100%)`, 'animate', prop, i, 'time');
          return;
        }
        const sec = length === undefined ? undefined : (pct / 100) * length;
        if (
          (prevPct !== undefined && pct < prevPct) ||
          (sec !== undefined && prevSec !== undefined && sec < prevSec - EPSILON)
        )
          report(
            ctx,
            'VALIDATION_ERROR',
            `keys must be in time order; ${time} comes before the key above it`,
            'animate',
            prop,
            i,
            'time',
          );
        prevPct = pct;
        if (sec !== undefined) prevSec = sec;
      } else if (typeof time === 'number' && Number.isFinite(time)) {
        if (length !== undefined && time > length + EPSILON)
          report(
            ctx,
            'VALIDATION_ERROR',
            `${time} s is past the element's end (its duration is ${length} s)`,
            'animate',
            prop,
            i,
            'time',
          );
        else if (prevSec !== undefined && time < prevSec - EPSILON)
          report(
            ctx,
            'VALIDATION_ERROR',
            `keys must be in time order; ${time} s comes before the key above it`,
            'animate',
            prop,
            i,
            'time',
          );
        prevSec = time;
        if (length !== undefined) prevPct = (time / length) * 100;
      }
    });
  }
}
