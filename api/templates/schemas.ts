import { Type } from '@sinclair/typebox';
import { DateTime, ListMeta, MovieDocument, PageQuery, StringEnum } from '../http/schemas.ts';
import { EXAMPLE_MOVIE } from '../renders/schemas.ts';

const VariableDeclSchema = Type.Object(
  {
    type: StringEnum(['string', 'number', 'boolean', 'url', 'color', 'enum'] as const),
    default: Type.Optional(Type.Unknown()),
    description: Type.Optional(Type.String()),
    options: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: true },
);

export const VariableManifestSchema = Type.Record(Type.String(), VariableDeclSchema, {
  description: 'Manifest mirroring body.variables.',
});

const templateFields = {
  id: Type.String({ minLength: 1 }),
  name: Type.String({ minLength: 1 }),
  body: Type.Object({}, { additionalProperties: true, description: 'The movie document verbatim as stored.' }),
  variables: VariableManifestSchema,
  createdAt: DateTime,
  updatedAt: DateTime,
};

export const TemplateResourceSchema = Type.Object(templateFields, { additionalProperties: false });

export const WarningSchema = Type.Object(
  {
    code: Type.String({ description: 'Warning code, e.g. VARIABLE_UNUSED.' }),
    message: Type.String(),
    path: Type.String({ description: 'JSON path inside the movie document.' }),
  },
  { additionalProperties: false },
);

export const TemplateWriteResourceSchema = Type.Object(
  { ...templateFields, warnings: Type.Array(WarningSchema) },
  { additionalProperties: false },
);

const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });

export const CreateTemplateBody = Type.Object(
  { name: Name, body: MovieDocument },
  { additionalProperties: false, examples: [{ name: 'Greeting', body: EXAMPLE_MOVIE }] },
);

export const UpdateTemplateBody = Type.Object(
  { name: Type.Optional(Name), body: Type.Optional(MovieDocument) },
  {
    additionalProperties: false,
    minProperties: 1,
    description: 'name and/or body; at least one.',
    examples: [{ name: 'Greeting (v2)' }],
  },
);

export const ListTemplatesQuery = Type.Object(PageQuery, { additionalProperties: false });

export const TemplateListSchema = Type.Object(
  { items: Type.Array(TemplateResourceSchema), ...ListMeta },
  { additionalProperties: false },
);
