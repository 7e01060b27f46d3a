/**
 * Schema versions keyed by the document's `schema` tag. A new version is a new entry with its own
 * schema and rules; existing entries never change, so a document valid under a tag stays valid.
 */
import type { TSchema } from '@sinclair/typebox';
import { RULES_V1 } from './v1/rules.ts';
import { MovieV1 } from './v1/schema.ts';
import { type Check, compile } from './walk/compile.ts';

export interface SchemaVersion {
  tag: string;
  schema: TSchema;
  /** Full check of a finished document. */
  check: Check;
  /** Template check: {{placeholders}} stand in for scalars and are recorded for resolution. */
  templateCheck: Check;
}

const REGISTRY: ReadonlyMap<string, SchemaVersion> = new Map([
  [
    'v1',
    {
      tag: 'v1',
      schema: MovieV1,
      check: compile(MovieV1, RULES_V1, false),
      templateCheck: compile(MovieV1, RULES_V1, true),
    },
  ],
]);

export const SCHEMA_VERSIONS: readonly string[] = Object.freeze([...REGISTRY.keys()]);

export function schemaVersion(tag: string): SchemaVersion | undefined {
  return REGISTRY.get(tag);
}
