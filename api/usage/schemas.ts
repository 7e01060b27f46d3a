import { Type } from '@sinclair/typebox';
import { PLANS } from '../../store/types.ts';
import { StringEnum } from '../http/schemas.ts';

export const UsageSchema = Type.Object(
  {
    plan: StringEnum(PLANS),
    mode: StringEnum(['live', 'test'] as const),
    credits: Type.Object(
      {
        balance: Type.Integer(),
        reserved: Type.Integer({ minimum: 0, description: 'Held by renders queued or in progress.' }),
        available: Type.Integer({ description: 'balance - reserved.' }),
      },
      { additionalProperties: false },
    ),
    concurrency: Type.Object(
      { limit: Type.Integer({ minimum: 0 }), active: Type.Integer({ minimum: 0 }) },
      { additionalProperties: false },
    ),
    rateLimit: Type.Object(
      {
        limit: Type.Integer({ minimum: 0, description: 'Requests per window.' }),
        remaining: Type.Integer({ minimum: 0 }),
        reset: Type.Integer({ description: 'Epoch seconds.' }),
        windowSec: Type.Integer({ minimum: 1 }),
      },
      { additionalProperties: false },
    ),
    retentionDays: Type.Integer({ minimum: 1 }),
  },
  { additionalProperties: false },
);
