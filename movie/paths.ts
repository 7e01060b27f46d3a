/** JSON paths in the spec's form: `scenes[2].elements[0].src`, root keys bare, odd keys quoted. */
export type Segment = string | number;

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const MAX_KEY_SHOWN = 100;

export function formatPath(segments: readonly Segment[]): string {
  let out = '';
  for (const seg of segments) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (seg.length <= MAX_KEY_SHOWN && IDENT.test(seg)) out += out === '' ? seg : `.${seg}`;
    // A hostile 10 MB key must not make a 10 MB path.
    else out += `[${JSON.stringify(seg.length > MAX_KEY_SHOWN ? `${seg.slice(0, MAX_KEY_SHOWN)}…` : seg)}]`;
  }
  return out;
}

/**
 * Position of a path in the document, for sorting findings into document order: each step is the
 * key's index among its object's keys (a key the document lacks sorts after the present ones) or
 * the array index.
 */
export function documentPosition(
  root: unknown,
  segments: readonly Segment[],
  keyCache: Map<object, Map<string, number>>,
): number[] {
  const pos: number[] = [];
  let node: unknown = root;
  for (const seg of segments) {
    if (typeof seg === 'number') {
      pos.push(seg);
      node = Array.isArray(node) ? node[seg] : undefined;
    } else if (node !== null && typeof node === 'object' && !Array.isArray(node)) {
      // A map, not indexOf: a hostile object with a million keys and a thousand findings stays linear.
      let keys = keyCache.get(node);
      if (!keys) {
        keys = new Map(Object.keys(node).map((k, i) => [k, i]));
        keyCache.set(node, keys);
      }
      const i = keys.get(seg);
      pos.push(i === undefined ? keys.size : i);
      node = i === undefined ? undefined : (node as Record<string, unknown>)[seg];
    } else {
      pos.push(0);
      node = undefined;
    }
  }
  return pos;
}

export function comparePositions(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return a.length - b.length;
}
