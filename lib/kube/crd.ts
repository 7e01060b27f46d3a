/**
 * The Render CustomResourceDefinition, built from the TypeBox schemas of render-resource.ts so the
 * apiserver validates exactly what the code's types say. scripts/generate-crd.ts writes it to
 * crds/; a test holds the checked-in file equal to a fresh generation.
 */
import type { TSchema } from '@sinclair/typebox';
// js-yaml, not client-node's dumpYaml: dumpYaml serializes through client-node's models, whose
// JSONSchemaProps types `items` as `any`, so keywords below an array (enum, x-kubernetes-*) would
// keep the model's names (`_enum`). The CRD is built in wire form and dumped as it is.
import yaml from 'js-yaml';
import {
  CATEGORY,
  GROUP,
  KIND,
  LIST_KIND,
  PLURAL,
  RenderSpec,
  RenderStatus,
  SHORT_NAMES,
  SINGULAR,
  VERSION,
} from './render-resource.ts';

export const CRD_NAME = `${PLURAL}.${GROUP}`;
/** Where the generated CRD is checked in, relative to the repository root. */
export const CRD_FILE = `crds/${CRD_NAME}.yaml`;
/** The Helm chart's copy (a chart cannot read files outside itself), written by the same command. */
export const CHART_CRD_FILE = `charts/framewright/resources/${CRD_NAME}.yaml`;
export const REGENERATE_COMMAND = 'make crds';

type JsonSchema = Record<string, unknown>;

interface ValidationRule {
  rule: string;
  message: string;
}

/** An OpenAPI v3 schema node of a CRD, in wire form (the keywords this generator writes). */
export interface StructuralSchema {
  type: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  description?: string;
  format?: string;
  nullable?: boolean;
  enum?: unknown[];
  default?: unknown;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  required?: string[];
  properties?: Record<string, StructuralSchema>;
  items?: StructuralSchema;
  additionalProperties?: StructuralSchema;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-validations'?: ValidationRule[];
}

interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  jsonPath: string;
  description: string;
  priority?: number;
}

/** The apiextensions.k8s.io/v1 CustomResourceDefinition fields this generator writes. */
export interface CustomResourceDefinition {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: { name: string; labels: Record<string, string> };
  spec: {
    group: string;
    scope: 'Namespaced' | 'Cluster';
    names: {
      kind: string;
      listKind: string;
      plural: string;
      singular: string;
      shortNames: string[];
      categories: string[];
    };
    versions: {
      name: string;
      served: boolean;
      storage: boolean;
      subresources: { status: Record<string, never> };
      schema: { openAPIV3Schema: StructuralSchema };
      additionalPrinterColumns: PrinterColumn[];
    }[];
  };
}

// Keywords copied as they are. Any other keyword is refused, so a schema feature the CRD cannot
// express fails generation instead of vanishing.
const COPIED = new Set([
  'type',
  'description',
  'format',
  'pattern',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'maxProperties',
  'enum',
  'default',
  'required',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
  'x-kubernetes-validations',
]);
// JSON Schema bookkeeping with no place in a structural schema.
const DROPPED = new Set(['$id', '$schema', 'title']);

/**
 * Converts a TypeBox (JSON Schema) node into a structural OpenAPI v3 node: every node typed,
 * `anyOf` with null becomes `nullable: true`, a union of literals becomes an `enum`,
 * `additionalProperties: false` is dropped (the apiserver prunes unknown fields anyway), a
 * string-keyed Record becomes `additionalProperties`.
 * Throws, naming the path, on anything it cannot express.
 */
export function structuralSchema(schema: TSchema | JsonSchema, path = '$'): StructuralSchema {
  const node = schema as JsonSchema;
  let base: JsonSchema = node;
  let nullable = false;
  if (Array.isArray(node.anyOf)) {
    const members = node.anyOf as JsonSchema[];
    const values = members.filter((m) => m.type !== 'null');
    nullable = values.length < members.length;
    const { anyOf: _members, ...outer } = node;
    if (values.length > 0 && values.every((m) => 'const' in m && m.type === values[0]?.type)) {
      base = { ...outer, type: values[0]?.type, enum: values.map((m) => m.const) };
    } else if (values.length === 1) {
      base = { ...values[0], ...outer };
    } else {
      throw new Error(`${path}: a union of ${values.length} different schemas has no structural form`);
    }
  } else if ('const' in node) {
    const { const: value, ...rest } = node;
    base = { ...rest, enum: [value] };
  }

  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(base)) {
    if (DROPPED.has(key)) continue;
    if (key === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([name, child]) => [
          name,
          structuralSchema(child, `${path}.${name}`),
        ]),
      );
    } else if (key === 'items') {
      out.items = structuralSchema(value as JsonSchema, `${path}[*]`);
    } else if (key === 'patternProperties') {
      // TypeBox's Record(String, T): a map, which a structural schema writes as additionalProperties.
      const entries = Object.entries(value as Record<string, JsonSchema>);
      if (entries.length !== 1 || entries[0]![0] !== '^(.*)$') {
        throw new Error(`${path}: patternProperties other than a string-keyed map have no structural form`);
      }
      out.additionalProperties = structuralSchema(entries[0]![1], `${path}.*`);
    } else if (key === 'additionalProperties') {
      if (value !== false) out.additionalProperties = structuralSchema(value as JsonSchema, `${path}.*`);
    } else if (COPIED.has(key)) {
      out[key] = value;
    } else {
      throw new Error(`${path}: the JSON Schema keyword ${JSON.stringify(key)} has no place in the CRD schema`);
    }
  }
  if (nullable) out.nullable = true;
  if (typeof out.type !== 'string' || out.type === 'null') {
    throw new Error(`${path}: a structural schema needs a type on every node`);
  }
  return out as unknown as StructuralSchema;
}

function column(
  name: string,
  type: PrinterColumn['type'],
  jsonPath: string,
  description: string,
  priority = 0,
): PrinterColumn {
  return priority ? { name, type, jsonPath, description, priority } : { name, type, jsonPath, description };
}

/** The apiextensions.k8s.io/v1 CustomResourceDefinition of Render. Pure. */
export function renderCrd(): CustomResourceDefinition {
  const spec = structuralSchema(RenderSpec, '$.spec');
  // The API gated (and reserved credits for) exactly this spec: another render is another object.
  spec['x-kubernetes-validations'] = [{ rule: 'self == oldSelf', message: 'spec is immutable' }];
  const root: StructuralSchema = {
    type: 'object',
    description:
      'A Render is one movie render of the Framewright API. The API creates it after gating; the operator ' +
      'runs it as a batch/v1 Job whose worker pod renders the movie and reports progress on its status.',
    required: ['spec'],
    properties: {
      apiVersion: {
        type: 'string',
        description: 'APIVersion defines the versioned schema of this representation of an object.',
      },
      kind: {
        type: 'string',
        description: 'Kind is a string value representing the REST resource this object represents.',
      },
      metadata: { type: 'object' },
      spec,
      status: structuralSchema(RenderStatus, '$.status'),
    },
    // renderIdFromName relies on the name standing for the id; the apiserver holds every writer to it.
    'x-kubernetes-validations': [
      {
        rule: "self.metadata.name == self.spec.renderId.replace('_', '-')",
        message: 'metadata.name must be spec.renderId with _ replaced by - (rnd_x -> rnd-x)',
      },
    ],
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: CRD_NAME,
      labels: { 'app.kubernetes.io/name': 'framewright', 'app.kubernetes.io/component': 'crd' },
    },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: {
        kind: KIND,
        listKind: LIST_KIND,
        plural: PLURAL,
        singular: SINGULAR,
        shortNames: [...SHORT_NAMES],
        categories: [CATEGORY],
      },
      versions: [
        {
          name: VERSION,
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: { openAPIV3Schema: root },
          additionalPrinterColumns: [
            column('Status', 'string', '.status.phase', 'Phase of the render.'),
            column('Progress', 'integer', '.status.progress', 'Percent done.'),
            column('Duration', 'string', '.status.duration', 'Length of the movie (status.durationSec, rounded).'),
            column(
              'Segments',
              'string',
              '.status.segmentsReady',
              'Segments finished, of all (a render over many pods).',
            ),
            column('Age', 'date', '.metadata.creationTimestamp', 'Time since the render was accepted.'),
            column('Account', 'string', '.spec.accountId', 'Account of the render.', 1),
            column('Job', 'string', '.status.jobName', 'The batch/v1 Job running the render.', 1),
            column(
              'Renderer',
              'string',
              '.status.drawing.renderer',
              'The GL the worker draws with (a GPU, or llvmpipe).',
              1,
            ),
            column(
              'Pods',
              'integer',
              '.status.attempts',
              'Worker pods started so far, over all stages (1 + segments + 1 for a segmented render).',
              1,
            ),
          ],
        },
      ],
    },
  };
}

/** The CRD file's text: a header saying how to regenerate it, then the YAML. */
export function renderCrdYaml(): string {
  const header = [
    `# Generated by scripts/generate-crd.ts from lib/kube/render-resource.ts: do not edit.`,
    `# Regenerate with \`${REGENERATE_COMMAND}\` (node --import tsx scripts/generate-crd.ts).`,
  ].join('\n');
  return `${header}\n${yaml.dump(renderCrd(), { noRefs: true, sortKeys: true, lineWidth: 120 })}`;
}
