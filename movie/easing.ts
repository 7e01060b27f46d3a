/**
 * Easing curves of keyframe segments, pure and deterministic (the same number on every pod):
 * `linear`, the CSS named curves, `cubic-bezier(x1, y1, x2, y2)`, `steps(n[, jump-start|jump-end])`
 * (CSS Easing Functions Level 1) and `spring(mass, stiffness, damping)`, a damped harmonic
 * oscillator solved in closed form.
 *
 * A cubic Bézier is solved for x(t) = x the way browsers do (WebKit's UnitBezier, Firefox's
 * nsSMILKeySpline): Newton's method from t = x, then bisection when the slope is too flat to trust.
 */

export type Easing =
  | { kind: 'linear' }
  | { kind: 'cubic-bezier'; x1: number; y1: number; x2: number; y2: number }
  | { kind: 'steps'; steps: number; position: 'jump-start' | 'jump-end' }
  | { kind: 'spring'; mass: number; stiffness: number; damping: number };

/** The CSS named curves (CSS Easing Functions Level 1, section 2.2). */
export const NAMED_CURVES = {
  ease: [0.25, 0.1, 0.25, 1],
  'ease-in': [0.42, 0, 1, 1],
  'ease-out': [0, 0, 0.58, 1],
  'ease-in-out': [0.42, 0, 0.58, 1],
} as const satisfies Record<string, readonly [number, number, number, number]>;

export const LINEAR: Easing = Object.freeze({ kind: 'linear' });

const NUMBER = String.raw`\s*(-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*`;
const BEZIER_RE = new RegExp(`^cubic-bezier\\(${NUMBER},${NUMBER},${NUMBER},${NUMBER}\\)$`);
const STEPS_RE = /^steps\(\s*(\d+)\s*(?:,\s*(jump-start|jump-end|start|end)\s*)?\)$/;
const SPRING_RE = new RegExp(`^spring\\(${NUMBER},${NUMBER},${NUMBER}\\)$`);

/** Bounds of a spring's parameters (they keep the closed form's exponentials finite over an hour). */
const SPRING_LIMITS = { mass: [0.01, 100], stiffness: [0.01, 10000], damping: [0, 1000] } as const;
const MAX_STEPS = 1000;

/** The accepted spellings, for messages and the docs. */
export const EASING_SYNTAX =
  'linear, ease, ease-in, ease-out, ease-in-out, cubic-bezier(x1, y1, x2, y2) with x1 and x2 in [0, 1], steps(n[, jump-start|jump-end]), spring(mass, stiffness, damping)';

/** Parses an easing as written in a document, or says what is wrong with it. */
export function parseEasing(text: string): Easing | { error: string } {
  const s = text.trim();
  if (s === 'linear') return LINEAR;
  if (Object.hasOwn(NAMED_CURVES, s)) {
    const [x1, y1, x2, y2] = NAMED_CURVES[s as keyof typeof NAMED_CURVES];
    return { kind: 'cubic-bezier', x1, y1, x2, y2 };
  }
  let m = BEZIER_RE.exec(s);
  if (m) {
    const [x1, y1, x2, y2] = m.slice(1, 5).map(Number) as [number, number, number, number];
    if (!(x1 >= 0 && x1 <= 1 && x2 >= 0 && x2 <= 1)) return { error: 'cubic-bezier x1 and x2 must be within [0, 1]' };
    if (![y1, y2].every((v) => Math.abs(v) <= 100))
      return { error: 'cubic-bezier y1 and y2 must be within [-100, 100]' };
    return { kind: 'cubic-bezier', x1, y1, x2, y2 };
  }
  m = STEPS_RE.exec(s);
  if (m) {
    const steps = Number(m[1]);
    if (steps < 1 || steps > MAX_STEPS) return { error: `steps(n) needs 1 <= n <= ${MAX_STEPS}` };
    const position = m[2] === 'jump-start' || m[2] === 'start' ? 'jump-start' : 'jump-end';
    return { kind: 'steps', steps, position };
  }
  m = SPRING_RE.exec(s);
  if (m) {
    const [mass, stiffness, damping] = m.slice(1, 4).map(Number) as [number, number, number];
    for (const [name, v] of Object.entries({ mass, stiffness, damping })) {
      const [lo, hi] = SPRING_LIMITS[name as keyof typeof SPRING_LIMITS];
      if (!(v >= lo && v <= hi)) return { error: `spring ${name} must be within [${lo}, ${hi}]` };
    }
    return { kind: 'spring', mass, stiffness, damping };
  }
  return { error: `not an easing; expected ${EASING_SYNTAX}` };
}

/** The custom check of an easing string (movie/walk/compile.ts): undefined when it parses. */
export function easingProblem(v: string): string | undefined {
  const e = parseEasing(v);
  return 'error' in e ? e.error : undefined;
}

/** Parses an easing known to be valid (validation ran first); throws otherwise. */
export function easingOf(text: string | undefined): Easing {
  if (text === undefined) return LINEAR;
  const e = parseEasing(text);
  if ('error' in e) throw new RangeError(`${text}: ${e.error}`);
  return e;
}

/**
 * The cubic Bézier through (0,0), (x1,y1), (x2,y2), (1,1) as y(x). Newton's method on x(t) - x from
 * t = x (8 rounds, stopping within 1e-12), then bisection of t on [0, 1] (x(t) is monotonic because
 * x1, x2 are in [0, 1]) when Newton did not converge: WebKit's UnitBezier scheme, with bisection
 * run to t's precision rather than x's, so flat stretches of x(t) give y exactly too.
 */
export function cubicBezier(x1: number, y1: number, x2: number, y2: number): (x: number) => number {
  // Polynomial coefficients: B(t) = ((a t + b) t + c) t.
  const cx = 3 * x1;
  const bx = 3 * (x2 - x1) - cx;
  const ax = 1 - cx - bx;
  const cy = 3 * y1;
  const by = 3 * (y2 - y1) - cy;
  const ay = 1 - cy - by;
  const sampleX = (t: number) => ((ax * t + bx) * t + cx) * t;
  const sampleY = (t: number) => ((ay * t + by) * t + cy) * t;
  const slopeX = (t: number) => (3 * ax * t + 2 * bx) * t + cx;
  const solveT = (x: number): number => {
    let t = x;
    for (let i = 0; i < 8; i++) {
      const err = sampleX(t) - x;
      if (Math.abs(err) < 1e-12) return t;
      const d = slopeX(t);
      if (Math.abs(d) < 1e-6) break;
      t -= err / d;
    }
    // Where x(t) is nearly flat a small error in x is a large one in t: bisect t itself.
    let lo = 0;
    let hi = 1;
    for (let i = 0; i < 52; i++) {
      t = (lo + hi) / 2;
      if (sampleX(t) < x) lo = t;
      else hi = t;
    }
    return (lo + hi) / 2;
  };
  return (x) => {
    if (x <= 0) return 0;
    if (x >= 1) return 1;
    return sampleY(solveT(x));
  };
}

/**
 * CSS steps(): `n` equal jumps. jump-end holds 0 over the first interval and reaches 1 only at
 * the end; jump-start jumps at the start (the first interval shows 1/n). At the exact boundary
 * the value after the jump is taken (CSS's "before flag" aside, which only matters for fill-backwards).
 */
export function stepsAt(steps: number, position: 'jump-start' | 'jump-end', p: number): number {
  if (p >= 1) return 1;
  if (p < 0) return 0;
  let step = Math.floor(p * steps);
  if (position === 'jump-start') step += 1;
  return Math.min(1, step / steps);
}

/**
 * A spring released from rest at 0 towards 1: mass m, stiffness k, damping c, `t` seconds after
 * the release. The displacement x(t) from the target (x(0) = 1, x'(0) = 0) of m x'' + c x' + k x = 0
 * in closed form, with w0 = sqrt(k / m) and zeta = c / (2 sqrt(k m)):
 *   under-damped (zeta < 1): e^(-zeta w0 t) (cos(wd t) + zeta w0 / wd sin(wd t)), wd = w0 sqrt(1 - zeta^2)
 *   critically damped:       e^(-w0 t) (1 + w0 t)
 *   over-damped (zeta > 1):  (r2 e^(r1 t) - r1 e^(r2 t)) / (r2 - r1), r1,2 = -w0 (zeta -+ sqrt(zeta^2 - 1))
 * and the value is 1 - x(t).
 */
export function springAt(mass: number, stiffness: number, damping: number, t: number): number {
  if (t <= 0) return 0;
  const w0 = Math.sqrt(stiffness / mass);
  const zeta = damping / (2 * Math.sqrt(stiffness * mass));
  let x: number;
  if (Math.abs(zeta - 1) < 1e-9) {
    x = Math.exp(-w0 * t) * (1 + w0 * t);
  } else if (zeta < 1) {
    const wd = w0 * Math.sqrt(1 - zeta * zeta);
    x = Math.exp(-zeta * w0 * t) * (Math.cos(wd * t) + ((zeta * w0) / wd) * Math.sin(wd * t));
  } else {
    const root = Math.sqrt(zeta * zeta - 1);
    const r1 = -w0 * (zeta - root);
    const r2 = -w0 * (zeta + root);
    x = (r2 * Math.exp(r1 * t) - r1 * Math.exp(r2 * t)) / (r2 - r1);
  }
  return 1 - x;
}

/**
 * Seconds after which a spring stays within `tolerance` of its target (of the distance travelled):
 * the envelope of x(t) is below it from then on. Under-damped: e^(-zeta w0 t) / sqrt(1 - zeta^2)
 * bounds |x|; critically and over-damped x is monotonic, so the first instant within is the last.
 */
export function springSettleSec(mass: number, stiffness: number, damping: number, tolerance = 0.001): number {
  const w0 = Math.sqrt(stiffness / mass);
  const zeta = damping / (2 * Math.sqrt(stiffness * mass));
  if (zeta < 1 - 1e-9) return Math.log(1 / (tolerance * Math.sqrt(1 - zeta * zeta))) / (zeta * w0);
  // Monotonic: bisection for 1 - springAt = tolerance.
  let hi = 1 / w0;
  while (1 - springAt(mass, stiffness, damping, hi) > tolerance) hi *= 2;
  let lo = 0;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (1 - springAt(mass, stiffness, damping, mid) > tolerance) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** Each parsed Bézier's solver, made once (a frame evaluates the same easings again and again). */
const curves = new WeakMap<Easing, (x: number) => number>();

/**
 * Progress 0..1 (a spring or a Bézier may overshoot) of a segment: `p` is the fraction of the
 * segment elapsed, `elapsedSec` the seconds elapsed (a spring runs in real time: its curve does
 * not stretch with the segment, and it arrives exactly at the segment's end).
 */
export function ease(e: Easing, p: number, elapsedSec: number): number {
  if (p >= 1) return 1;
  switch (e.kind) {
    case 'linear':
      return Math.max(0, p);
    case 'cubic-bezier': {
      let curve = curves.get(e);
      if (!curve) {
        curve = cubicBezier(e.x1, e.y1, e.x2, e.y2);
        curves.set(e, curve);
      }
      return curve(p);
    }
    case 'steps':
      return stepsAt(e.steps, e.position, p);
    case 'spring':
      return springAt(e.mass, e.stiffness, e.damping, elapsedSec);
  }
}
