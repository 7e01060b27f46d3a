import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Type } from '@sinclair/typebox';
import {
  CHART_CRD_FILE,
  CRD_FILE,
  REGENERATE_COMMAND,
  renderCrd,
  renderCrdYaml,
  type StructuralSchema,
  structuralSchema,
} from './crd.ts';
import { CATEGORY, formatDuration, GROUP, KIND, PLURAL, SHORT_NAMES, VERSION } from './render-resource.ts';

/** Every node below `node`, with its JSON path. */
function* nodes(node: StructuralSchema, at = '$'): Generator<[string, StructuralSchema]> {
  yield [at, node];
  for (const [name, child] of Object.entries(node.properties ?? {})) yield* nodes(child, `${at}.${name}`);
  if (node.items) yield* nodes(node.items, `${at}[*]`);
  if (node.additionalProperties) yield* nodes(node.additionalProperties, `${at}.*`);
}

const version = () => {
  const v = renderCrd().spec.versions[0];
  assert.ok(v);
  return v;
};

test("the checked-in CRD and the chart's copy are what the TypeBox schemas generate", () => {
  for (const file of [CRD_FILE, CHART_CRD_FILE]) {
    const committed = readFileSync(fileURLToPath(new URL(`../../${file}`, import.meta.url)), 'utf8');
    assert.ok(
      committed === renderCrdYaml(),
      `${file} is stale: the schemas in lib/kube/render-resource.ts changed. Run \`${REGENERATE_COMMAND}\` and commit the file.`,
    );
  }
});

test('names, scope, version and subresources', () => {
  const crd = renderCrd();
  assert.equal(crd.metadata.name, `${PLURAL}.${GROUP}`);
  assert.equal(crd.spec.group, GROUP);
  assert.equal(crd.spec.scope, 'Namespaced');
  assert.equal(crd.spec.names.kind, KIND);
  assert.deepEqual(crd.spec.names.shortNames, SHORT_NAMES);
  assert.deepEqual(crd.spec.names.categories, [CATEGORY]);
  assert.equal(crd.spec.versions.length, 1);
  const v = version();
  assert.equal(v.name, VERSION);
  assert.equal(v.served, true);
  assert.equal(v.storage, true);
  assert.deepEqual(v.subresources, { status: {} });
});

test('the schema is structural: every node typed, no JSON Schema bookkeeping left', () => {
  const root = version().schema.openAPIV3Schema;
  for (const [at, node] of nodes(root)) {
    assert.ok(['object', 'array', 'string', 'integer', 'number', 'boolean'].includes(node.type), `${at} has no type`);
    for (const key of ['$id', '$schema', 'anyOf', 'oneOf', 'allOf', 'const', 'patternProperties']) {
      assert.ok(!(key in node), `${at} carries ${key}`);
    }
    assert.notEqual((node as { additionalProperties?: unknown }).additionalProperties, false, `${at}`);
  }
});

test('every spec and status field has a description (kubectl explain)', () => {
  const root = version().schema.openAPIV3Schema;
  for (const part of ['spec', 'status'] as const) {
    const schema = root.properties?.[part];
    assert.ok(schema, part);
    for (const [at, node] of nodes(schema, `.${part}`)) {
      assert.ok(node.description && node.description.length > 10, `${at} has no description`);
    }
  }
});

test('nullable unions, literal enums, defaults and list-map markers survive the conversion', () => {
  const props = version().schema.openAPIV3Schema.properties;
  const spec = props?.spec?.properties;
  assert.deepEqual(
    structuralSchema(
      Type.Object({ t: Type.Union([Type.String({ maxLength: 3 }), Type.Null()], { description: 'd' }) }),
    ),
    {
      type: 'object',
      required: ['t'],
      properties: { t: { type: 'string', maxLength: 3, description: 'd', nullable: true } },
    },
  );
  assert.deepEqual(spec?.mode?.enum, ['live', 'test']);
  assert.equal(spec?.maxAttempts?.default, 2);
  const status = props?.status?.properties;
  assert.deepEqual(status?.phase?.enum, ['queued', 'preparing', 'rendering', 'done', 'failed']);
  assert.deepEqual(status?.conditions?.items?.properties?.status?.enum, ['True', 'False', 'Unknown']);
  assert.equal(status?.conditions?.['x-kubernetes-list-type'], 'map');
  assert.deepEqual(status?.conditions?.['x-kubernetes-list-map-keys'], ['type']);
  assert.ok(!props?.spec?.required?.includes('templateId'));
});

test('the spec is immutable (CEL) and the name must stand for the render id', () => {
  const root = version().schema.openAPIV3Schema;
  assert.deepEqual(root.properties?.spec?.['x-kubernetes-validations'], [
    { rule: 'self == oldSelf', message: 'spec is immutable' },
  ]);
  assert.match(root['x-kubernetes-validations']?.[0]?.rule ?? '', /self\.metadata\.name == /);
  // CEL's cost estimate needs every string of the compared spec bounded.
  for (const [at, node] of nodes(root.properties?.spec as StructuralSchema, '.spec')) {
    if (node.type === 'string' && !node.enum) assert.ok(node.maxLength !== undefined, `${at} has no maxLength`);
    // A null in the spec makes `self == oldSelf` false on every update (seen on v1.33).
    assert.ok(!node.nullable, `${at} is nullable`);
  }
});

test('printer columns: STATUS PROGRESS DURATION SEGMENTS AGE, and ACCOUNT JOB RENDERER PODS under -o wide', () => {
  const columns = version().additionalPrinterColumns.map((c) => [c.name, c.jsonPath, c.type, c.priority ?? 0]);
  assert.deepEqual(columns, [
    ['Status', '.status.phase', 'string', 0],
    ['Progress', '.status.progress', 'integer', 0],
    ['Duration', '.status.duration', 'string', 0],
    ['Segments', '.status.segmentsReady', 'string', 0],
    ['Age', '.metadata.creationTimestamp', 'date', 0],
    ['Account', '.spec.accountId', 'string', 1],
    ['Job', '.status.jobName', 'string', 1],
    ['Renderer', '.status.drawing.renderer', 'string', 1],
    ['Pods', '.status.attempts', 'integer', 1],
  ]);
});

test('formatDuration: rounded to 10 ms, in the units of a Go duration', () => {
  assert.deepEqual([0, 2, 12.5, 10.1 / 3, 59.999, 100, 160, 3723.5].map(formatDuration), [
    '0s',
    '2s',
    '12.5s',
    '3.37s',
    '1m0s',
    '1m40s',
    '2m40s',
    '1h2m3.5s',
  ]);
});

test('structuralSchema refuses what a CRD cannot express, naming the path', () => {
  assert.throws(
    () => structuralSchema(Type.Object({ a: Type.Union([Type.String(), Type.Number()]) })),
    /\$\.a: a union of 2 different schemas/,
  );
  assert.throws(() => structuralSchema(Type.Object({ a: Type.Any() })), /\$\.a: a structural schema needs a type/);
  // A string-keyed map is a structural map; a map keyed by a pattern is not.
  assert.throws(
    () => structuralSchema(Type.Object({ m: Type.Record(Type.Number(), Type.String()) })),
    /\$\.m: patternProperties other than a string-keyed map/,
  );
  assert.deepEqual(structuralSchema(Type.Object({ m: Type.Record(Type.String(), Type.Integer()) })), {
    type: 'object',
    properties: { m: { type: 'object', additionalProperties: { type: 'integer' } } },
    required: ['m'],
  });
  assert.deepEqual(structuralSchema(Type.Object({ a: Type.String() }, { $id: 'X', additionalProperties: false })), {
    type: 'object',
    properties: { a: { type: 'string' } },
    required: ['a'],
  });
});
