/**
 * The shape element of v1: a rectangle, ellipse, line, polygon or SVG path filled with a colour or
 * a gradient and stroked, inside a box like an image's. schema.ts builds it from the common fields
 * it gives (the image element's id, box, position, timing and animation), so that fields added to
 * every visual element apply here too; its cross-field rule (`shapeRule`) runs from rules.ts.
 * Coordinates are output pixels of the full-size frame, relative to the box's top-left corner.
 */
import { type TProperties, Type } from '@sinclair/typebox';
import { isPlainObject } from '../describe.ts';
import { isDeferred, report, type WalkContext } from '../walk/context.ts';
import { Color, fw } from './parts.ts';

const SHAPE_KINDS = ['rectangle', 'ellipse', 'line', 'polygon', 'path'] as const;

const SHAPE_LIMITS = {
  /** Vertices of a polygon. */
  points: 1000,
  /** Characters of a path's `d`. */
  pathLength: 20_000,
  /** Stops of a gradient. */
  stops: 16,
  /** Lengths of a stroke's dash pattern. */
  dashes: 16,
  strokeWidth: 500,
  /** Coordinates may reach this far (output pixels) outside the box; what lies outside is cut off. */
  coordinate: 8192,
} as const;

/** The fill of a closed shape that names none and has no stroke. */
export const DEFAULT_SHAPE_FILL = '#ffffff';
/** Angle of a linear gradient that names none: top to bottom, as in CSS. */
export const DEFAULT_GRADIENT_ANGLE = 180;

const Coordinate = (description: string) =>
  Type.Number({ minimum: -SHAPE_LIMITS.coordinate, maximum: SHAPE_LIMITS.coordinate, description });

const Point = (description: string) =>
  Type.Object(
    {
      x: Coordinate('Output pixels from the box’s left edge.'),
      y: Coordinate('Output pixels from the box’s top edge.'),
    },
    { additionalProperties: false, description, ...fw({ docName: 'point' }) },
  );

const Stops = Type.Array(
  Type.Object(
    {
      offset: Type.Number({ minimum: 0, maximum: 1, description: 'Where along the gradient, 0 (start) to 1 (end).' }),
      color: Color('Colour at that offset (alpha included).'),
    },
    { additionalProperties: false, ...fw({ docName: 'gradient stop' }) },
  ),
  {
    minItems: 2,
    maxItems: SHAPE_LIMITS.stops,
    description: 'Colours and where they are, offsets in increasing order; between them colours blend in sRGB.',
  },
);

export const LinearGradient = Type.Object(
  {
    type: Type.Literal('linear'),
    angle: Type.Optional(
      Type.Number({
        minimum: -360,
        maximum: 360,
        default: DEFAULT_GRADIENT_ANGLE,
        description:
          'Direction in degrees, as in CSS: 0 runs bottom to top, 90 left to right, 180 top to bottom. The gradient spans the box, corner to corner along that direction.',
      }),
    ),
    stops: Stops,
  },
  {
    additionalProperties: false,
    description: 'A linear gradient across the box.',
    ...fw({ docName: 'linear gradient' }),
  },
);

export const RadialGradient = Type.Object(
  {
    type: Type.Literal('radial'),
    stops: Stops,
  },
  {
    additionalProperties: false,
    description:
      "A radial gradient from the box's centre (offset 0) to its corners (offset 1), an ellipse of the box's proportions.",
    ...fw({ docName: 'radial gradient' }),
  },
);

const Gradient = Type.Union([LinearGradient, RadialGradient], {
  description: 'A gradient: linear or radial.',
  ...fw({ discriminator: 'type', docName: 'gradient' }),
});

const Fill = Type.Union([Color('A solid colour.'), Gradient], {
  description: `Colour or gradient inside the shape. Default: ${DEFAULT_SHAPE_FILL}, or none when a stroke is given. A line has no fill.`,
  ...fw({ expect: 'a colour or a gradient object', docDefault: `${DEFAULT_SHAPE_FILL} (none with a stroke)` }),
});

export const ShapeStroke = Type.Object(
  {
    width: Type.Number({
      exclusiveMinimum: 0,
      maximum: SHAPE_LIMITS.strokeWidth,
      description: 'Width in output pixels, centred on the outline (half of it outside the shape).',
    }),
    color: Color('Colour of the stroke (alpha included).'),
    dash: Type.Optional(
      Type.Array(Type.Number({ minimum: 0, maximum: SHAPE_LIMITS.coordinate }), {
        minItems: 1,
        maxItems: SHAPE_LIMITS.dashes,
        description:
          'Dash pattern in output pixels: on, off, on, off… (an odd list repeats once more, as in SVG). Default: a solid stroke.',
        ...fw({ docDefault: 'solid' }),
      }),
    ),
  },
  { additionalProperties: false, description: 'The outline of the shape.', ...fw({ docName: 'shape stroke' }) },
);

/**
 * The shape element, from the fields every visual element has (schema.ts passes the image
 * element's: id, width, height, position, start, duration, animation and whatever else they share).
 */
export function shapeElement<C extends TProperties>(common: C) {
  return Type.Object(
    {
      ...common,
      type: Type.Literal('shape'),
      shape: Type.Union(
        SHAPE_KINDS.map((k) => Type.Literal(k)),
        {
          description:
            'rectangle and ellipse fill the box; line joins from and to; polygon joins points; path draws d (SVG path data). Coordinates are output pixels from the box’s top-left corner; what falls outside the box (its stroke aside) is cut off.',
        },
      ),
      cornerRadius: Type.Optional(
        Type.Number({
          minimum: 0,
          maximum: SHAPE_LIMITS.coordinate,
          default: 0,
          description: "Rounded corners of a rectangle, output pixels (at most half the box's shorter side is used).",
        }),
      ),
      from: Type.Optional(Point('Where a line starts.')),
      to: Type.Optional(Point('Where a line ends.')),
      points: Type.Optional(
        Type.Array(Point('A vertex.'), {
          minItems: 3,
          maxItems: SHAPE_LIMITS.points,
          description: 'Vertices of a polygon, joined in order and closed.',
        }),
      ),
      d: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: SHAPE_LIMITS.pathLength,
          description:
            'SVG path data of a path (M, L, H, V, C, S, Q, T, A, Z and their relative forms), in output pixels from the box’s top-left corner. Filled by the non-zero rule.',
        }),
      ),
      fill: Type.Optional(Fill),
      stroke: Type.Optional(ShapeStroke),
    },
    {
      additionalProperties: false,
      description:
        'A vector shape drawn anti-aliased into a box: rectangle, ellipse, line, polygon or SVG path, filled with a colour or gradient and stroked.',
      ...fw({ rule: 'element' }),
    },
  );
}

/** Numbers each command of SVG path data takes. */
const PATH_ARGS: Record<string, number> = { m: 2, l: 2, h: 1, v: 1, c: 6, s: 4, q: 4, t: 2, a: 7, z: 0 };
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/;

/**
 * What is wrong with SVG path data (the SVG 2 grammar: a moveto first, each command followed by
 * whole groups of its numbers, arc flags 0 or 1), or undefined when it is well formed.
 */
export function pathDataProblem(d: string): string | undefined {
  let i = 0;
  const skip = () => {
    while (i < d.length && /[\s,]/.test(d[i]!)) i++;
  };
  const at = () => `at character ${i + 1}`;
  skip();
  if (i >= d.length) return 'path data is empty';
  if (!/[Mm]/.test(d[i]!)) return `path data must start with a moveto (M or m); got ${JSON.stringify(d[i])} ${at()}`;
  while (i < d.length) {
    const c = d[i]!;
    const n = PATH_ARGS[c.toLowerCase()];
    if (n === undefined) return `${JSON.stringify(c)} is not a path command ${at()}`;
    i++;
    skip();
    if (n === 0) continue;
    let groups = 0;
    for (;;) {
      let k = 0;
      for (; k < n; k++) {
        if (c.toLowerCase() === 'a' && (k === 3 || k === 4)) {
          if (d[i] !== '0' && d[i] !== '1') {
            return i >= d.length || /[A-Za-z]/.test(d[i]!)
              ? `command ${c} needs ${n} numbers per segment; got ${k} ${at()}`
              : `an arc flag must be 0 or 1 ${at()}`;
          }
          i++;
        } else {
          const m = NUMBER.exec(d.slice(i, i + 64));
          if (!m) {
            if (k === 0 && groups > 0) break;
            return i >= d.length || /[A-Za-z]/.test(d[i]!)
              ? `command ${c} needs ${n} numbers per segment; got ${k} ${at()}`
              : `${JSON.stringify(d[i])} is not a number ${at()}`;
          }
          i += m[0].length;
        }
        skip();
      }
      if (k < n) break;
      groups++;
      if (i >= d.length || /[A-Za-z]/.test(d[i]!)) break;
    }
  }
  return undefined;
}

const present = (o: Record<string, unknown>, key: string) => Object.hasOwn(o, key) && o[key] !== undefined;

/** Which fields each kind needs, and which it may not have. */
const OWN_FIELDS: Record<string, { needs: string[]; only: string[] }> = {
  rectangle: { needs: [], only: ['cornerRadius'] },
  ellipse: { needs: [], only: [] },
  line: { needs: ['from', 'to', 'stroke'], only: ['from', 'to'] },
  polygon: { needs: ['points'], only: ['points'] },
  path: { needs: ['d'], only: ['d'] },
};
const KIND_FIELDS = ['cornerRadius', 'from', 'to', 'points', 'd'];

/** Cross-field checks of a shape element; reports at the element's fields. */
export function shapeRule(el: Record<string, unknown>, ctx: WalkContext): void {
  const kind = el.shape;
  if (typeof kind !== 'string' || isDeferred(ctx, kind)) return;
  const own = OWN_FIELDS[kind];
  if (!own) return; // reported by the schema
  for (const f of own.needs) {
    if (!present(el, f))
      report(
        ctx,
        'VALIDATION_ERROR',
        `a ${kind} needs ${f}${f === 'stroke' ? ' (a line is drawn by its stroke)' : ''}`,
        f,
      );
  }
  for (const f of KIND_FIELDS) {
    if (present(el, f) && !own.only.includes(f))
      report(ctx, 'VALIDATION_ERROR', `${f} applies only to a ${kindOf(f)}; this shape is a ${kind}`, f);
  }
  if (kind === 'line' && present(el, 'fill'))
    report(ctx, 'VALIDATION_ERROR', 'a line has no inside to fill; drop fill and colour it with stroke.color', 'fill');
  if (kind === 'path' && typeof el.d === 'string' && !isDeferred(ctx, el.d)) {
    const problem = pathDataProblem(el.d);
    if (problem) report(ctx, 'VALIDATION_ERROR', problem, 'd');
  }
  const fill = el.fill;
  if (isPlainObject(fill) && Array.isArray(fill.stops)) {
    let last = Number.NEGATIVE_INFINITY;
    fill.stops.forEach((s, i) => {
      if (!isPlainObject(s) || typeof s.offset !== 'number') return;
      if (s.offset < last)
        report(
          ctx,
          'VALIDATION_ERROR',
          `gradient stops go in increasing offset order; ${s.offset} comes after ${last}`,
          'fill',
          'stops',
          i,
          'offset',
        );
      last = Math.max(last, s.offset);
    });
  }
  const stroke = el.stroke;
  if (isPlainObject(stroke) && Array.isArray(stroke.dash)) {
    const dash = stroke.dash.filter((v): v is number => typeof v === 'number');
    if (dash.length === stroke.dash.length && dash.every((v) => v === 0))
      report(
        ctx,
        'VALIDATION_ERROR',
        'a dash pattern needs a length above 0; drop dash for a solid stroke',
        'stroke',
        'dash',
      );
  }
}

function kindOf(field: string): string {
  if (field === 'cornerRadius') return 'rectangle';
  if (field === 'from' || field === 'to') return 'line';
  if (field === 'points') return 'polygon';
  return 'path';
}
