/**
 * JSON paths in the spec's form (`scenes[2].elements[0].src`): the one formatter of every path an
 * error or warning carries, movie findings and request findings alike (api/http/validation.ts,
 * api/scripts/validate-script-request.ts), and the dashboard's locator. An array index is `[n]`; a
 * key that is a plain name (ASCII letters, digits, `_`, `$`, not starting with a digit) is bare at
 * the root and `.name` below it; any other key (a dot, a bracket, a quote, a space, digits only, the
 * empty string, non-ASCII) is JSON-quoted in brackets, `["a.b"]`, `["0"]`, `[""]`, cut at 100
 * characters. So a path names one field only: `a.b` is never the key "a.b", `[0]` never the key "0".
 */
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

/** An array index as a JSON Pointer writes it (RFC 6901): `0`, or digits without a leading zero. */
const INDEX = /^(0|[1-9][0-9]*)$/;

/**
 * The segments of a JSON Pointer (RFC 6901: `/movie/scenes/2/id`, `~1` for `/`, `~0` for `~`), as
 * validators report where a finding is (ajv's instancePath, TypeBox's path). A pointer does not say
 * whether `2` is an index or a key: with `root`, the document the pointer points into, it is an
 * index where that part of the document is an array and a key where it is an object; without it
 * (or past the end of the document), a segment of digits is read as an index.
 */
export function pointerSegments(pointer: string, root?: unknown): Segment[] {
  if (pointer === '') return [];
  const segments: Segment[] = [];
  let node: unknown = root;
  for (const raw of pointer.slice(pointer.startsWith('/') ? 1 : 0).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const isObject = node !== null && typeof node === 'object' && !Array.isArray(node);
    if (INDEX.test(key) && !isObject) {
      const index = Number(key);
      segments.push(index);
      node = Array.isArray(node) ? node[index] : undefined;
    } else {
      segments.push(key);
      node = isObject && Object.hasOwn(node as object, key) ? (node as Record<string, unknown>)[key] : undefined;
    }
  }
  return segments;
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
