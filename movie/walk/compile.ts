/**
 * Compiles a TypeBox schema into a tree of check closures, once per schema version. The checks
 * walk a document along the schema only (never into unknown keys), so any JSON value, however
 * deep or large, costs at most the schema's depth, and report every finding with its path.
 *
 * Codes: a wrong JSON type, a missing required field, an unknown key and a value outside an
 * enumeration are SCHEMA_INVALID; bounds, patterns, formats and cross-field rules VALIDATION_ERROR.
 */
import { Kind, type TSchema } from '@sinclair/typebox';
import { colorProblem } from '../colors.ts';
import { describe, isPlainObject, type JsonType, jsonType } from '../describe.ts';
import { easingProblem } from '../easing.ts';
import { fontProblem } from '../fonts.ts';
import { formatPath } from '../paths.ts';
import { scanPlaceholders } from '../placeholders.ts';
import { isAbsoluteHttpUrl } from '../variables.ts';
import { VOICES, voiceById } from '../voices.ts';
import { annotations, type CheckName } from './annotations.ts';
import { type Admits, report, type WalkContext } from './context.ts';

export type Check = (value: unknown, ctx: WalkContext) => void;
export type Rule = (value: Record<string, unknown>, ctx: WalkContext) => void;

type Node = TSchema & Record<string, unknown>;
interface Options {
  rules: Record<string, Rule>;
  template: boolean;
}

const DATA_IMAGE = /^data:image\/(png|jpeg|webp|gif|avif|svg\+xml);base64,[A-Za-z0-9+/]+={0,2}$/;

const CUSTOM_CHECKS: Record<CheckName, (value: string) => string | undefined> = {
  color: colorProblem,
  font: fontProblem,
  'media-url': (v) => {
    if (v.startsWith('data:')) {
      return DATA_IMAGE.test(v)
        ? undefined
        : 'must be a base64 data:image/(png|jpeg|webp|gif|avif|svg+xml) URI or an absolute http(s) URL';
    }
    return isAbsoluteHttpUrl(v)
      ? undefined
      : `must be an absolute http(s) URL of at most 2048 characters or a base64 data:image URI; got ${describe(v)}`;
  },
  'http-url': (v) =>
    isAbsoluteHttpUrl(v) ? undefined : `must be an absolute http(s) URL of at most 2048 characters; got ${describe(v)}`,
  'voice-id': (v) =>
    voiceById(v)
      ? undefined
      : `${describe(v)} is not in the voice catalogue; use one of ${VOICES.map((x) => x.id).join(', ')}`,
  easing: easingProblem,
};

/** The name a message uses for the value at the current path: its key, or `scenes[2]` for items. */
function label(ctx: WalkContext): string {
  const last = ctx.path[ctx.path.length - 1];
  if (last === undefined) return 'the document';
  if (typeof last === 'string') return last.length > 60 ? `${last.slice(0, 60)}…` : last;
  return formatPath(ctx.path.slice(-2));
}

function where(ctx: WalkContext): string {
  return ctx.path.length === 0 ? 'the document' : formatPath(ctx.path);
}

function numberRule(s: Node): string {
  const even = s.multipleOf === 2;
  let text = s[Kind] === 'Integer' ? (even ? 'an even integer' : 'an integer') : 'a number';
  const min = s.minimum as number | undefined;
  const max = s.maximum as number | undefined;
  const exMin = s.exclusiveMinimum as number | undefined;
  if (min !== undefined && max !== undefined) text += ` from ${min} to ${max}`;
  else if (exMin !== undefined && max !== undefined) text += ` greater than ${exMin} and at most ${max}`;
  else if (exMin !== undefined) text += ` greater than ${exMin}`;
  else if (min !== undefined) text += ` of at least ${min}`;
  else if (max !== undefined) text += ` of at most ${max}`;
  if (s.multipleOf !== undefined && !even) text += ` in steps of ${s.multipleOf}`;
  return text;
}

function jsonTypesOf(s: Node): Set<JsonType> {
  switch (s[Kind]) {
    case 'Literal':
      return new Set([jsonType(s.const)]);
    case 'String':
      return new Set(['string']);
    case 'Number':
    case 'Integer':
      return new Set(['number']);
    case 'Boolean':
      return new Set(['boolean']);
    case 'Object':
    case 'Record':
      return new Set(['object']);
    case 'Array':
      return new Set(['array']);
    case 'Union':
      return new Set((s.anyOf as Node[]).flatMap((m) => [...jsonTypesOf(m)]));
    default:
      return new Set();
  }
}

function admitsOf(s: Node): Admits {
  if (annotations(s).check) return { string: true, number: false, boolean: false };
  const types = jsonTypesOf(s);
  return { string: types.has('string'), number: types.has('number'), boolean: types.has('boolean') };
}

function expectText(s: Node): string {
  const a = annotations(s);
  if (a.expect) return a.expect;
  switch (s[Kind]) {
    case 'String':
      return 'a string';
    case 'Number':
      return 'a number';
    case 'Integer':
      return 'an integer';
    case 'Boolean':
      return 'a boolean (true or false)';
    case 'Object':
    case 'Record':
      return 'an object';
    case 'Array':
      return 'an array';
    case 'Literal':
      return JSON.stringify(s.const);
    case 'Union':
      return (s.anyOf as Node[]).map(expectText).join(' or ');
    default:
      return 'a valid value';
  }
}

/**
 * Compiles `schema` for full or template mode (a subtree marked `noPlaceholder` is always full);
 * `rules` are the cross-field rule functions the schema names by `x-fw.rule`. */
export function compile(schema: TSchema, rules: Record<string, Rule>, template: boolean): Check {
  const node = schema as Node;
  const a = annotations(node);
  // Template mode is a compile-time choice: the full checker carries no placeholder wrappers at all.
  const opts: Options = { rules, template: template && !a.noPlaceholder };
  let check = compileBare(node, opts);
  const admits = admitsOf(node);
  const scalar = admits.string || admits.number || admits.boolean;
  if (scalar && opts.template)
    check = withPlaceholders(check, admits, (node.maxLength as number | undefined) ?? 1_000_000);
  return check;
}

/**
 * In template mode a string holding a {{reference}} stands in for any scalar: it is recorded (for
 * resolution and VARIABLE_UNDECLARED) and checked once resolved. Strings holding only escapes are
 * recorded too, so resolution turns `{{{{x}}}}` into `{{x}}`, and are checked as they are.
 */
function withPlaceholders(inner: Check, admits: Admits, maxLength: number): Check {
  return (v, ctx) => {
    // An over-long string is not scanned: the inner check reports its length.
    if (typeof v === 'string' && v.length <= maxLength && v.includes('{{')) {
      const scan = scanPlaceholders(v);
      if (scan) {
        const segments = ctx.path.slice();
        ctx.sites.push({ segments, raw: v, scan, admits });
        for (const name of scan.refs) if (!ctx.refs.has(name)) ctx.refs.set(name, segments);
        if (scan.refs.length > 0) return;
      }
    }
    inner(v, ctx);
  };
}

function compileBare(s: Node, opts: Options): Check {
  const a = annotations(s);
  if (a.check) return customCheck(s, a.check);
  switch (s[Kind]) {
    case 'Object':
      return objectCheck(s, opts);
    case 'Record':
      return recordCheck(s, opts);
    case 'Array':
      return arrayCheck(s, opts);
    case 'Union':
      if (a.discriminator) return discriminatedCheck(s, a.discriminator, opts);
      if ((s.anyOf as Node[]).every((m) => m[Kind] === 'Literal')) return enumCheck(s);
      return unionCheck(s, opts);
    case 'Literal':
      return enumCheck({ anyOf: [s] } as unknown as Node);
    case 'String':
      return stringCheck(s);
    case 'Number':
    case 'Integer':
      return numberCheck(s);
    case 'Boolean':
      return (v, ctx) => {
        if (typeof v !== 'boolean')
          report(ctx, 'SCHEMA_INVALID', `${label(ctx)} must be true or false; got ${describe(v)}`);
      };
    default:
      throw new TypeError(`movie schema compiler: unsupported schema kind ${String(s[Kind])}`);
  }
}

function typeError(ctx: WalkContext, expected: string, v: unknown): void {
  report(ctx, 'SCHEMA_INVALID', `${label(ctx)} must be ${expected}; got ${describe(v)}`);
}

function lengthProblem(s: Node, v: string): string | undefined {
  const min = s.minLength as number | undefined;
  const max = s.maxLength as number | undefined;
  if (min !== undefined && v.length < min)
    return min === 1 ? 'must not be empty' : `must have at least ${min} characters`;
  if (max !== undefined && v.length > max) return `must have at most ${max} characters; got ${v.length}`;
  return undefined;
}

function stringCheck(s: Node): Check {
  const pattern = typeof s.pattern === 'string' ? new RegExp(s.pattern as string) : undefined;
  const patternText = annotations(s).patternText ?? `match ${s.pattern as string}`;
  return (v, ctx) => {
    if (typeof v !== 'string') return typeError(ctx, 'a string', v);
    const length = lengthProblem(s, v);
    if (length) return report(ctx, 'VALIDATION_ERROR', `${label(ctx)} ${length}`);
    if (pattern && !pattern.test(v))
      report(ctx, 'VALIDATION_ERROR', `${label(ctx)} must be ${patternText}; got ${describe(v)}`);
  };
}

function customCheck(s: Node, name: CheckName): Check {
  const problem = CUSTOM_CHECKS[name];
  const expected = expectText(s);
  const bounds = s[Kind] === 'String' ? s : ({ maxLength: 1_000_000 } as unknown as Node);
  return (v, ctx) => {
    if (typeof v !== 'string')
      return typeError(ctx, expected === 'a string' ? 'a string' : `a string (${expected})`, v);
    const length = lengthProblem(bounds, v);
    if (length) return report(ctx, 'VALIDATION_ERROR', `${label(ctx)} ${length}`);
    const p = problem(v);
    if (p) report(ctx, 'VALIDATION_ERROR', `${label(ctx)} ${p}`);
  };
}

function numberCheck(s: Node): Check {
  const integer = s[Kind] === 'Integer';
  const min = s.minimum as number | undefined;
  const max = s.maximum as number | undefined;
  const exMin = s.exclusiveMinimum as number | undefined;
  const step = s.multipleOf as number | undefined;
  const rule = numberRule(s);
  return (v, ctx) => {
    if (typeof v !== 'number') return typeError(ctx, integer ? 'an integer' : 'a number', v);
    const bad =
      !Number.isFinite(v) ||
      (integer && !Number.isInteger(v)) ||
      (min !== undefined && v < min) ||
      (max !== undefined && v > max) ||
      (exMin !== undefined && v <= exMin) ||
      (step !== undefined && v % step !== 0);
    if (bad) report(ctx, 'VALIDATION_ERROR', `${label(ctx)} must be ${rule}; got ${describe(v)}`);
  };
}

function enumCheck(s: Node): Check {
  const values = (s.anyOf as Node[]).map((m) => m.const);
  const set = new Set(values);
  const shown = values.map((v) => JSON.stringify(v)).join(', ');
  const text = values.length === 1 ? shown : `one of ${shown}`;
  return (v, ctx) => {
    if (!set.has(v as never)) report(ctx, 'SCHEMA_INVALID', `${label(ctx)} must be ${text}; got ${describe(v)}`);
  };
}

function unionCheck(s: Node, opts: Options): Check {
  const members = (s.anyOf as Node[]).map((m) => ({ types: jsonTypesOf(m), check: compileBare(m, opts) }));
  const expected = expectText(s);
  return (v, ctx) => {
    const t = jsonType(v);
    const member = members.find((m) => m.types.has(t));
    if (!member) return typeError(ctx, expected, v);
    member.check(v, ctx);
  };
}

function discriminatedCheck(s: Node, key: string, opts: Options): Check {
  const byTag = new Map<unknown, Check>();
  for (const m of s.anyOf as Node[]) {
    const tag = ((m.properties as Record<string, Node>)[key] as Node).const;
    byTag.set(tag, compileBare(m, opts));
  }
  const tags = [...byTag.keys()].map((t) => JSON.stringify(t)).join(', ');
  return (v, ctx) => {
    if (!isPlainObject(v)) return typeError(ctx, `an object with "${key}" one of ${tags}`, v);
    const tag = v[key];
    if (tag === undefined)
      return report(ctx, 'SCHEMA_INVALID', `${where(ctx)} is missing required field "${key}" (one of ${tags})`, key);
    const check = byTag.get(tag);
    if (!check) return report(ctx, 'SCHEMA_INVALID', `${key} must be one of ${tags}; got ${describe(tag)}`, key);
    check(v, ctx);
  };
}

/**
 * Objects are the hot path (thousands per document), so their check is generated code: constant
 * property reads and a `switch` over the document's keys instead of a map lookup per key. Only the
 * schema's own key names are spliced into the source (as JSON string literals), never input.
 */
function objectCheck(s: Node, opts: Options): Check {
  const props = s.properties as Record<string, Node>;
  const keys = Object.keys(props);
  const checks = keys.map((k) => compile(props[k]!, opts.rules, opts.template));
  const required = new Set((s.required as string[] | undefined) ?? []);
  const allowed = keys.join(', ');
  const ruleName = annotations(s).rule;
  const rule = ruleName === undefined ? undefined : opts.rules[ruleName];
  if (ruleName !== undefined && !rule) throw new TypeError(`movie schema compiler: no rule named ${ruleName}`);

  const notObject: (v: unknown, ctx: WalkContext) => void = (v, ctx) => typeError(ctx, 'an object', v);
  const unknown = (ctx: WalkContext, key: string) => {
    const shown = key.length > 60 ? `${key.slice(0, 60)}…` : key;
    report(ctx, 'SCHEMA_INVALID', `unknown field ${JSON.stringify(shown)} in ${where(ctx)}; allowed: ${allowed}`, key);
  };
  const missing = (ctx: WalkContext, key: string) =>
    report(ctx, 'SCHEMA_INVALID', `${where(ctx)} is missing required field "${key}"`, key);

  const lit = (k: string) => JSON.stringify(k);
  const source = [
    'return function checkObject(v, ctx) {',
    '  if (v === null || typeof v !== "object" || Array.isArray(v)) return notObject(v, ctx);',
    '  if (ctx.full) return;',
    '  let x;',
    // Keys in the order the document wrote them, so findings and first references come in document order.
    '  for (const k in v) {',
    '    switch (k) {',
    ...keys.map(
      (k, i) =>
        // `undefined` only reaches us from JavaScript callers; it means "absent", as in JSON.
        `      case ${lit(k)}: x = v[${lit(k)}]; if (x !== undefined) { ctx.path.push(${lit(k)}); checks[${i}](x, ctx); ctx.path.pop(); } continue;`,
    ),
    '    }',
    '    if (Object.hasOwn(v, k)) unknown(ctx, k);',
    '  }',
    ...[...required].map((k) => `  if (v[${lit(k)}] === undefined) missing(ctx, ${lit(k)});`),
    '  if (rule !== undefined && !ctx.full) rule(v, ctx);',
    '};',
  ].join('\n');
  return new Function('notObject', 'unknown', 'missing', 'checks', 'rule', source)(
    notObject,
    unknown,
    missing,
    checks,
    rule,
  ) as Check;
}

function recordCheck(s: Node, opts: Options): Check {
  const [pattern, valueSchema] = Object.entries(s.patternProperties as Record<string, Node>)[0]!;
  const keyPattern = new RegExp(pattern);
  const valueCheck = compile(valueSchema, opts.rules, opts.template);
  const maxProps = s.maxProperties as number | undefined;
  const keyText = annotations(s).keyText ?? `a key matching ${pattern}`;
  return (v, ctx) => {
    if (!isPlainObject(v)) return typeError(ctx, 'an object', v);
    const keys = Object.keys(v);
    if (maxProps !== undefined && keys.length > maxProps)
      report(ctx, 'VALIDATION_ERROR', `${label(ctx)} may have at most ${maxProps} entries; got ${keys.length}`);
    for (const key of keys.slice(0, maxProps ?? keys.length)) {
      if (ctx.full) return;
      ctx.path.push(key);
      if (key.length > 64 || !keyPattern.test(key))
        report(ctx, 'VALIDATION_ERROR', `${describe(key)} is not a valid name; use ${keyText}, at most 64 characters`);
      if (v[key] !== undefined) valueCheck(v[key], ctx);
      ctx.path.pop();
    }
  };
}

function arrayCheck(s: Node, opts: Options): Check {
  const item = compile(s.items as Node, opts.rules, opts.template);
  const min = s.minItems as number | undefined;
  const max = s.maxItems as number | undefined;
  const { emptyCode, emptyText } = annotations(s);
  return (v, ctx) => {
    if (!Array.isArray(v)) return typeError(ctx, 'an array', v);
    if (v.length === 0 && emptyCode) {
      report(ctx, emptyCode, `${where(ctx)} is empty; ${emptyText ?? 'add at least one item'}`);
    } else if (min !== undefined && v.length < min) {
      report(ctx, 'VALIDATION_ERROR', `${label(ctx)} must have at least ${min} item${min === 1 ? '' : 's'}`);
    } else if (max !== undefined && v.length > max) {
      report(ctx, 'VALIDATION_ERROR', `${label(ctx)} may have at most ${max} items; got ${v.length}`);
    }
    // Past the limit only the first `max` items are checked: a hostile array costs no more.
    const n = max === undefined ? v.length : Math.min(v.length, max);
    for (let i = 0; i < n; i++) {
      if (ctx.full) return;
      ctx.path.push(i);
      item(v[i], ctx);
      ctx.path.pop();
    }
  };
}
