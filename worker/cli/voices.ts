import { VOICES } from '../../movie/index.ts';

export interface VoicesOptions {
  json?: boolean;
}

/** `framewright voices [--json]`: the voice catalogue. */
export async function main(values: VoicesOptions): Promise<number> {
  if (values.json) {
    process.stdout.write(`${JSON.stringify(VOICES, null, 2)}\n`);
    return 0;
  }
  const w = Math.max(...VOICES.map((v) => v.id.length));
  const lines = VOICES.map(
    (v) => `${v.id.padEnd(w)}  ${v.engine.padEnd(6)}  ${v.language.padEnd(6)}  ${v.description}`,
  );
  process.stdout.write(`${'id'.padEnd(w)}  engine  lang    description\n${lines.join('\n')}\n`);
  process.stdout.write('\nopenai-* voices need OPENAI_API_KEY on the worker; espeak-* voices work offline.\n');
  return 0;
}
