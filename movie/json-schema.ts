/** JSON Schema 2020-12 export of a schema version: the TypeBox schema minus our `x-fw` annotations. */
import { SCHEMA_VERSIONS, schemaVersion } from './versions.ts';

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (k !== 'x-fw') out[k] = strip(v);
  return out;
}

export function movieJsonSchema(version: 'v1' = 'v1'): Record<string, unknown> {
  const entry = schemaVersion(version);
  if (!entry) throw new RangeError(`unknown schema version ${version}; known: ${SCHEMA_VERSIONS.join(', ')}`);
  const body = strip(entry.schema) as Record<string, unknown>;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `https://framewright.dev/schemas/movie.${version}.json`,
    title: `Framewright movie document ${version}`,
    description:
      'Structure of a movie document. Some rules are beyond JSON Schema and are checked by the service: unique scene and element ids, preset or width+height, "voice" scenes need a voice element, elements end within their scene, variable defaults match their type, a text element with autoFit needs maxHeight or maxLines and a minFontSize at most its fontSize, subtitles take backgroundColor or background but not both. {{name}} placeholders are resolved before this schema applies.',
    ...body,
  };
}
