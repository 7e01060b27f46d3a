/**
 * Writes api/openapi.json from the route schemas: `npx tsx api/generate-openapi.ts`.
 * test/api/openapi.test.ts fails while the committed file differs from what this produces.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from './openapi-document.ts';

const target = fileURLToPath(new URL('./openapi.json', import.meta.url));
await writeFile(target, `${JSON.stringify(await openApiDocument(), null, 2)}\n`);
process.stdout.write(`wrote ${target}\n`);
