import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { VOICES } from '../../movie/index.ts';
import { requireAuth } from '../auth/require-auth.ts';
import { errorResponses } from '../http/schemas.ts';

const VoiceSchema = Type.Object(
  {
    id: Type.String({ description: 'The value for voiceId in a voice element.' }),
    engine: Type.Union([Type.Literal('espeak'), Type.Literal('openai')]),
    language: Type.String({ description: "Locale such as en-US, or 'multi' for multilingual voices." }),
    description: Type.String(),
  },
  { $id: 'Voice', additionalProperties: false },
);

/** GET /v1/voices: the voice catalogue, so a client can pick a valid voiceId. */
const voicesRoute: FastifyPluginAsyncTypebox = async (app) => {
  // OpenAI voices render only where the workers have OPENAI_API_KEY; a render without it fails
  // with TTS_FAILED naming the variable, so they are listed either way.
  const items = VOICES.map((v) => ({ id: v.id, engine: v.engine, language: v.language, description: v.description }));
  app.get(
    '/voices',
    {
      schema: {
        operationId: 'listVoices',
        tags: ['voices'],
        summary: 'The voice catalogue',
        response: { 200: Type.Object({ items: Type.Array(VoiceSchema) }), ...errorResponses() },
      },
    },
    async (request) => {
      requireAuth(request);
      return { items };
    },
  );
};

export default voicesRoute;
