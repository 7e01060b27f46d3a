// English prose the builder cuts narration from: ordinary function words, so the language
// check sees English, and no sentence of it appears in any test's source material.
const PROSE = (
  'The old lighthouse stands at the edge of the cliff and it has watched the sea for two hundred years. ' +
  'Every night the keeper climbs the narrow stairs to light the lamp for the ships that pass in the dark. ' +
  'In the winter the storms are strong and the waves crash against the rocks with a sound like thunder. ' +
  'The people of the village trust the light because it has never failed them when the weather turns. ' +
  'Today the lamp is automatic but the keeper still visits it to check that everything is in order.'
).split(' ');

/** `count` words of English narration; `offset` varies the text between scenes. */
export function narration(count: number, offset = 0): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(PROSE[(offset * 7 + i) % PROSE.length] as string);
  return out.join(' ').replace(/[.]$/, '') + '.';
}

export interface DraftShape {
  scenes?: number;
  words?: number | ((sceneIndex: number) => number);
  title?: string | null;
  description?: string | null;
  imagePrompt?: ((sceneIndex: number) => string | null) | null;
  voiceText?: (sceneIndex: number) => string;
}

/** A model answer as JSON-ready data, valid by default (12 scenes of 20 words, all fields). */
export function makeDraft(shape: DraftShape = {}): {
  title: string | null;
  description: string | null;
  scenes: { voiceText: string; imagePrompt: string | null }[];
} {
  const n = shape.scenes ?? 12;
  const wordsFor = (i: number) => (typeof shape.words === 'function' ? shape.words(i) : (shape.words ?? 20));
  return {
    title: shape.title === undefined ? 'The Keeper of the Light' : shape.title,
    description:
      shape.description === undefined
        ? 'A short film about a lighthouse and the people who rely on it.'
        : shape.description,
    scenes: Array.from({ length: n }, (_, i) => ({
      voiceText: shape.voiceText ? shape.voiceText(i) : narration(wordsFor(i), i),
      imagePrompt:
        shape.imagePrompt === null
          ? null
          : shape.imagePrompt
            ? shape.imagePrompt(i)
            : `A lighthouse on a cliff at dusk, scene ${i + 1}, waves below`,
    })),
  };
}
