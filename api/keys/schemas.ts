import { Type } from '@sinclair/typebox';
import { DateTime, ListMeta, Nullable, optionalBody, PageQuery, StringEnum } from '../http/schemas.ts';

const KEY_MODES = ['live', 'test'] as const;
const KEY_STATUSES = ['active', 'revoked'] as const;

const keyFields = {
  id: Type.String({ description: 'key_…' }),
  mode: StringEnum(KEY_MODES),
  prefix: Type.String({ description: 'The first 12 characters of the secret, e.g. fw_live_Qv4c: what lists show.' }),
  createdAt: DateTime,
  lastUsedAt: Nullable(
    Type.String({ format: 'date-time', description: 'Last authenticated request, to the minute; null if never.' }),
  ),
  revokedAt: Nullable(Type.String({ format: 'date-time' })),
  replacedBy: Nullable(Type.String({ description: 'The key that replaced it when it was rolled.' })),
  current: Type.Boolean({ description: 'True for the key that made this request.' }),
};

export const ApiKeySchema = Type.Object(keyFields, { additionalProperties: false });

export const NewApiKeySchema = Type.Object(
  {
    ...keyFields,
    secret: Type.String({
      pattern: '^fw_(live|test)_[0-9A-Za-z]{40}$',
      description: 'The key itself. Shown in this answer only: only its SHA-256 hash is stored.',
    }),
  },
  { additionalProperties: false },
);

/** Every field has a default: no body at all means "a key of my mode" (docs/api.md). */
export const CreateKeyBody = optionalBody(
  Type.Object(
    {
      mode: Type.Optional(
        StringEnum(KEY_MODES, 'live or test; default: the mode of the calling key. A test key creates test keys only.'),
      ),
    },
    { additionalProperties: false, examples: [{ mode: 'test' }] },
  ),
);

export const ListKeysQuery = Type.Object(
  { status: Type.Optional(StringEnum(KEY_STATUSES, 'Only active or only revoked keys; default both.')), ...PageQuery },
  { additionalProperties: false },
);

export const KeyListSchema = Type.Object(
  { items: Type.Array(ApiKeySchema), ...ListMeta },
  { additionalProperties: false },
);

export const RolledKeySchema = Type.Object(
  {
    created: NewApiKeySchema,
    revoked: ApiKeySchema,
  },
  { additionalProperties: false, description: 'The replacement (with its secret, shown once) and the revoked key.' },
);
