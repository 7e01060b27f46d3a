import type { Violation } from './draft.ts';
import type { EnforcedConstraints, ScriptRequest } from './schemas.ts';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Re-prompts list at most this many violations: a 50-scene draft can break a rule 50 times. */
export const MAX_VIOLATIONS_LISTED = 20;

/**
 * JSON schema of the model's answer, sent as a `json_schema` response format. Strict mode wants
 * every property required and no extra ones, so optional parts are nullable instead of absent.
 */
export function draftJsonSchema(c: EnforcedConstraints): Record<string, unknown> {
  const text = (required: boolean) => (required ? { type: 'string' } : { type: ['string', 'null'] });
  return {
    type: 'object',
    additionalProperties: false,
    required: ['title', 'description', 'scenes'],
    properties: {
      title: text(c.title),
      description: text(c.description),
      scenes: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['voiceText', 'imagePrompt'],
          properties: { voiceText: { type: 'string' }, imagePrompt: text(c.imagePrompts) },
        },
      },
    },
  };
}

function rules(req: ScriptRequest, c: EnforcedConstraints): string[] {
  const r: string[] = [];
  const { min, max } = c.sceneCount;
  r.push(min === max ? `Write exactly ${min} scenes.` : `Write between ${min} and ${max} scenes; choose the number.`);
  if (c.wordsPerScene) {
    const { min: lo, max: hi } = c.wordsPerScene;
    if (lo !== null && hi !== null) r.push(`Each scene's voiceText has between ${lo} and ${hi} words.`);
    else if (lo !== null) r.push(`Each scene's voiceText has at least ${lo} words.`);
    else r.push(`Each scene's voiceText has at most ${hi} words.`);
  }
  r.push(`Write every text (title, description, narration) in ${c.language}.`);
  if (c.imagePrompts) {
    r.push('Give every scene an imagePrompt: a concrete description of one still image that illustrates it.');
    if (c.visualStyle) r.push(`Every imagePrompt must include this visual style, word for word: "${c.visualStyle}".`);
  } else {
    r.push('Set every imagePrompt to null.');
  }
  r.push(c.title ? 'Write a short, specific title.' : 'Set title to null.');
  r.push(c.description ? 'Write a one- or two-sentence description of the video.' : 'Set description to null.');
  if (req.targetDurationSec !== null) {
    r.push(
      `Pace the narration for a video of about ${req.targetDurationSec} seconds (about 2.5 spoken words a second).`,
    );
  }
  if (req.sourceMaterial !== null) {
    r.push(
      `Cover the substance of the source material in your own words: never repeat ${
        (c.maxVerbatimWords ?? 11) + 1
      } or more consecutive words of it.`,
    );
  }
  return r;
}

/** The opening messages of a generation: the system rules and the caller's brief. */
export function buildMessages(req: ScriptRequest, c: EnforcedConstraints): ChatMessage[] {
  const system = [
    'You write narrated video scripts. A script is a title, a description and scenes in playback order;',
    'each scene has narration (voiceText, read aloud by a voice) and an image prompt (imagePrompt).',
    'Answer with one JSON object and nothing else, of this shape:',
    '{"title": string|null, "description": string|null, "scenes": [{"voiceText": string, "imagePrompt": string|null}]}',
    'Narration is plain spoken text: no scene numbers, stage directions, Markdown or emoji.',
    'Rules:',
    ...rules(req, c).map((line) => `- ${line}`),
  ].join('\n');
  const user = [`Brief:\n${req.brief}`];
  if (req.tone !== null) user.push(`Tone: ${req.tone}`);
  if (req.audience !== null) user.push(`Audience: ${req.audience}`);
  if (req.structure !== null) user.push(`Structure:\n${req.structure}`);
  if (req.sourceMaterial !== null) {
    user.push(`Source material (transform it, do not copy it):\n<<<SOURCE\n${req.sourceMaterial}\nSOURCE>>>`);
  }
  return [
    { role: 'system', content: system },
    { role: 'user', content: user.join('\n\n') },
  ];
}

/** The follow-up after a failing draft: each broken rule, where, and what to do instead. */
export function buildRepairMessage(violations: Violation[]): string {
  const listed = violations.slice(0, MAX_VIOLATIONS_LISTED).map((v) => `- ${v.path ? `${v.path}: ` : ''}${v.message}`);
  const more = violations.length - listed.length;
  if (more > 0) listed.push(`- and ${more} more problems of the same kinds`);
  return [
    'Your script breaks these rules:',
    ...listed,
    'Rewrite the whole script so that it follows every rule, and answer with the complete JSON object only.',
  ].join('\n');
}
