import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from '../http/schemas.ts';

/**
 * Per-scene narration bounds. Our reading of the spec's "not shown" object: integer word counts,
 * either bound optional but at least one present, and min <= max (checked in
 * validate-script-request.ts because JSON Schema cannot compare two fields).
 */
const WordsPerSceneSchema = Type.Object(
  {
    min: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, description: 'Fewest narration words per scene.' })),
    max: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, description: 'Most narration words per scene.' })),
  },
  { additionalProperties: false, minProperties: 1 },
);

/** Body of POST /v1/scripts: every field of docs/api.md's Scripts section with its bounds; defaults live in SCRIPT_DEFAULTS. */
export const ScriptRequestSchema = Type.Object(
  {
    brief: Type.String({ minLength: 1, maxLength: 2000, description: 'Creative brief.' }),
    sourceMaterial: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 30000,
        description: 'Material to transform; the script covers the same substance in original wording.',
      }),
    ),
    sceneCount: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 50,
        description: 'Exact number of scenes; the model chooses 10-14 when unset.',
      }),
    ),
    targetDurationSec: Type.Optional(
      Type.Number({ minimum: 5, maximum: 3600, description: 'Pacing guidance only, not enforced.' }),
    ),
    language: Type.Optional(
      Type.String({ minLength: 1, maxLength: 50, description: 'Output language; English when unset.' }),
    ),
    tone: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    audience: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    structure: Type.Optional(
      Type.String({ minLength: 1, maxLength: 2000, description: 'Free-text structural instructions.' }),
    ),
    visualStyle: Type.Optional(
      Type.String({ minLength: 1, maxLength: 500, description: 'Applied to every imagePrompt.' }),
    ),
    wordsPerScene: Type.Optional(WordsPerSceneSchema),
    includeImagePrompts: Type.Optional(Type.Boolean({ default: true, description: 'Emit an imagePrompt per scene.' })),
    includeTitle: Type.Optional(Type.Boolean({ default: true })),
    includeDescription: Type.Optional(Type.Boolean({ default: true })),
  },
  { additionalProperties: false },
);

export type ScriptRequestBody = Static<typeof ScriptRequestSchema>;

export const SCRIPT_DEFAULTS = {
  language: 'English',
  includeImagePrompts: true,
  includeTitle: true,
  includeDescription: true,
  /** Scene count range the model chooses from when sceneCount is unset (docs/api.md, Scripts). */
  sceneCountRange: { min: 10, max: 14 },
} as const;

/** A request with its defaults applied: what the generator and the checker work from. */
export interface ScriptRequest {
  brief: string;
  sourceMaterial: string | null;
  sceneCount: number | null;
  targetDurationSec: number | null;
  language: string;
  tone: string | null;
  audience: string | null;
  structure: string | null;
  visualStyle: string | null;
  wordsPerScene: { min: number | null; max: number | null } | null;
  includeImagePrompts: boolean;
  includeTitle: boolean;
  includeDescription: boolean;
}

const ScriptSceneSchema = Type.Object(
  {
    index: Type.Integer({ minimum: 1, description: '1-based position in playback order.' }),
    voiceText: Type.String({ minLength: 1, description: 'Narration of the scene.' }),
    imagePrompt: Nullable(
      Type.String({
        minLength: 1,
        description: 'Image prompt with the visual style applied; null when includeImagePrompts was false.',
      }),
    ),
  },
  { additionalProperties: false },
);

/** The constraints a script was generated and checked under, echoed in meta so callers can audit them. */
const EnforcedConstraintsSchema = Type.Object(
  {
    sceneCount: Type.Object(
      { min: Type.Integer({ minimum: 1 }), max: Type.Integer({ minimum: 1 }) },
      { description: 'Allowed scene count: min = max = sceneCount when set, else 10-14.' },
    ),
    wordsPerScene: Nullable(Type.Object({ min: Nullable(Type.Integer()), max: Nullable(Type.Integer()) })),
    imagePrompts: Type.Boolean(),
    visualStyle: Nullable(Type.String()),
    title: Type.Boolean(),
    description: Type.Boolean(),
    language: Type.String(),
    maxVerbatimWords: Nullable(
      Type.Integer({
        description: 'Longest run of consecutive sourceMaterial words a draft may repeat; null without sourceMaterial.',
      }),
    ),
  },
  { additionalProperties: false },
);

const ScriptMetaSchema = Type.Object(
  {
    model: Type.String({ description: 'Model that wrote the script.' }),
    attempts: Type.Integer({ minimum: 1, maximum: 3, description: 'Drafts requested, repairs included.' }),
    providerRequests: Type.Integer({ minimum: 1, description: 'HTTP calls to the model, retries included.' }),
    usage: Type.Object(
      {
        promptTokens: Type.Integer({ minimum: 0 }),
        completionTokens: Type.Integer({ minimum: 0 }),
        totalTokens: Type.Integer({ minimum: 0 }),
      },
      { description: 'Token usage summed over every call.' },
    ),
    generationMs: Type.Integer({ minimum: 0, description: 'Wall time of the generation.' }),
    language: Type.String({ description: 'Requested output language.' }),
    structuredOutput: Type.Boolean({
      description: 'Whether the endpoint accepted a JSON schema response format (else plain JSON was parsed).',
    }),
    creditsCharged: Type.Integer({ minimum: 0 }),
    constraints: EnforcedConstraintsSchema,
  },
  { additionalProperties: false },
);

/** The script resource (docs/api.md, Scripts): every field present, explicit nulls. */
export const ScriptResourceSchema = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    title: Nullable(Type.String({ minLength: 1, description: 'Null when includeTitle was false.' })),
    description: Nullable(Type.String({ minLength: 1, description: 'Null when includeDescription was false.' })),
    scenes: Type.Array(ScriptSceneSchema),
    meta: ScriptMetaSchema,
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

export type ScriptScene = Static<typeof ScriptSceneSchema>;
export type EnforcedConstraints = Static<typeof EnforcedConstraintsSchema>;
export type ScriptMeta = Static<typeof ScriptMetaSchema>;
export type ScriptResource = Static<typeof ScriptResourceSchema>;
