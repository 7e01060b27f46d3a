import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  cubicBezier,
  ease,
  easingOf,
  NAMED_CURVES,
  parseEasing,
  springAt,
  springSettleSec,
  stepsAt,
} from './easing.ts';

/**
 * An independent reference for a cubic Bézier y(x): bisection on x(t) (monotonic for x1, x2 in
 * [0, 1]) to machine precision, evaluated in the Bernstein form.
 */
function reference(x1: number, y1: number, x2: number, y2: number, x: number): number {
  const bern = (p1: number, p2: number, t: number) => 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t ** 2 * p2 + t ** 3;
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (bern(x1, x2, mid) < x) lo = mid;
    else hi = mid;
  }
  return bern(y1, y2, (lo + hi) / 2);
}

describe('cubic-bezier', () => {
  it('the CSS named curves match a bisection solve at 101 points within 1e-6', () => {
    for (const [name, [x1, y1, x2, y2]] of Object.entries(NAMED_CURVES)) {
      const f = cubicBezier(x1, y1, x2, y2);
      for (let i = 0; i <= 100; i++) {
        const x = i / 100;
        assert.ok(Math.abs(f(x) - reference(x1, y1, x2, y2, x)) < 1e-6, `${name} at ${x}`);
      }
    }
  });

  it('known values: ease(0.5) = 0.8024, ease-in-out is symmetric, ease-in mirrors ease-out', () => {
    const e = easingOf('ease');
    // The value browsers give for `ease` at the midpoint (WebKit UnitBezier: 0.80240339).
    assert.ok(Math.abs(ease(e, 0.5, 0) - 0.8024033877) < 1e-6);
    const io = easingOf('ease-in-out');
    assert.ok(Math.abs(ease(io, 0.5, 0) - 0.5) < 1e-9);
    const i = easingOf('ease-in');
    const o = easingOf('ease-out');
    for (const x of [0.1, 0.25, 0.6, 0.9]) assert.ok(Math.abs(ease(i, x, 0) - (1 - ease(o, 1 - x, 0))) < 1e-6);
  });

  it('a curve with flat ends (Newton fails near x = 0 and 1) is solved by bisection', () => {
    const f = cubicBezier(1, 0, 0, 1);
    for (const x of [0.001, 0.01, 0.3, 0.45, 0.6, 0.99, 0.999])
      assert.ok(Math.abs(f(x) - reference(1, 0, 0, 1, x)) < 1e-9, `at ${x}`);
    // At 0.5 x(t) is flat to rounding over t = 0.5 +- 5e-6 (the reference lands anywhere there):
    // the curve is point-symmetric, so y(0.5) is 0.5.
    assert.equal(f(0.5), 0.5);
  });

  it('overshooting y is kept; the ends are exact', () => {
    const f = cubicBezier(0.68, -0.6, 0.32, 1.6);
    assert.equal(f(0), 0);
    assert.equal(f(1), 1);
    assert.ok(f(0.1) < 0);
    assert.ok(f(0.9) > 1);
  });
});

describe('steps', () => {
  it('jump-end: 0 until the first step ends, the last step reaches 1 only at the end', () => {
    assert.equal(stepsAt(4, 'jump-end', 0), 0);
    assert.equal(stepsAt(4, 'jump-end', 0.2499), 0);
    assert.equal(stepsAt(4, 'jump-end', 0.25), 0.25);
    assert.equal(stepsAt(4, 'jump-end', 0.99), 0.75);
    assert.equal(stepsAt(4, 'jump-end', 1), 1);
  });
  it('jump-start: the first step at the start', () => {
    assert.equal(stepsAt(4, 'jump-start', 0), 0.25);
    assert.equal(stepsAt(4, 'jump-start', 0.2499), 0.25);
    assert.equal(stepsAt(4, 'jump-start', 0.75), 1);
  });
  it('parses steps(n) as jump-end and steps(n, start) as jump-start', () => {
    assert.deepEqual(parseEasing('steps(3)'), { kind: 'steps', steps: 3, position: 'jump-end' });
    assert.deepEqual(parseEasing('steps(3, start)'), { kind: 'steps', steps: 3, position: 'jump-start' });
  });
});

describe('spring', () => {
  // m x'' + c x' + k x = 0, x(0) = 1, x'(0) = 0, integrated numerically (RK4, 1e-5 s steps): an
  // independent check of the closed forms in all three regimes.
  function integrate(m: number, k: number, c: number, t: number): number {
    let x = 1;
    let v = 0;
    const h = 1e-5;
    const acc = (x: number, v: number) => (-k * x - c * v) / m;
    for (let s = 0; s < Math.round(t / h); s++) {
      const k1x = v;
      const k1v = acc(x, v);
      const k2x = v + (h / 2) * k1v;
      const k2v = acc(x + (h / 2) * k1x, v + (h / 2) * k1v);
      const k3x = v + (h / 2) * k2v;
      const k3v = acc(x + (h / 2) * k2x, v + (h / 2) * k2v);
      const k4x = v + h * k3v;
      const k4v = acc(x + h * k3x, v + h * k3v);
      x += (h / 6) * (k1x + 2 * k2x + 2 * k3x + k4x);
      v += (h / 6) * (k1v + 2 * k2v + 2 * k3v + k4v);
    }
    return 1 - x;
  }

  for (const [regime, m, k, c] of [
    ['under-damped', 1, 100, 10],
    ['critically damped', 1, 100, 20],
    ['over-damped', 1, 100, 50],
  ] as const) {
    it(`${regime} (m=${m}, k=${k}, c=${c}) equals the integrated ODE`, () => {
      for (const t of [0.05, 0.1, 0.2, 0.4, 0.8]) {
        assert.ok(Math.abs(springAt(m, k, c, t) - integrate(m, k, c, t)) < 1e-6, `t=${t}`);
      }
    });
  }

  it('under-damped overshoots by exp(-pi zeta / sqrt(1 - zeta^2)) at the first peak', () => {
    const [m, k, c] = [1, 100, 4];
    const zeta = c / (2 * Math.sqrt(k * m));
    const wd = Math.sqrt(k / m) * Math.sqrt(1 - zeta * zeta);
    const peak = springAt(m, k, c, Math.PI / wd);
    assert.ok(Math.abs(peak - 1 - Math.exp((-Math.PI * zeta) / Math.sqrt(1 - zeta * zeta))) < 1e-12);
  });

  it('settles: within the tolerance from springSettleSec on, and not long before', () => {
    for (const [m, k, c] of [
      [1, 100, 10],
      [1, 100, 20],
      [2, 50, 40],
    ] as const) {
      const settle = springSettleSec(m, k, c, 0.001);
      for (let t = settle; t < settle + 2; t += 0.01) assert.ok(Math.abs(1 - springAt(m, k, c, t)) <= 0.001 + 1e-12);
      assert.ok(settle < 10);
    }
  });

  it('runs in real seconds inside a segment and lands on the key at its end', () => {
    const s = easingOf('spring(1, 100, 10)');
    assert.equal(ease(s, 0.5, 0.25), springAt(1, 100, 10, 0.25));
    assert.equal(ease(s, 1, 2), 1);
  });
});

describe('parseEasing', () => {
  it('rejects what CSS rejects and out-of-range parameters', () => {
    for (const bad of [
      'bounce',
      'cubic-bezier(1.2, 0, 0, 1)',
      'cubic-bezier(0, 0, 1)',
      'steps(0)',
      'steps(2, middle)',
      'spring(0, 100, 10)',
      'spring(1, 100, -1)',
    ])
      assert.ok('error' in parseEasing(bad), bad);
  });
  it('accepts spaces and exponents', () => {
    assert.deepEqual(parseEasing(' cubic-bezier( .1 , 1e-1 , 0.5, 1 ) '), {
      kind: 'cubic-bezier',
      x1: 0.1,
      y1: 0.1,
      x2: 0.5,
      y2: 1,
    });
  });
});
