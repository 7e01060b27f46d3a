/**
 * The operator as a process of its own, without the CLI's dispatcher or the TypeScript loader:
 * bundled to plain JavaScript (lib/bundled-entry.ts) it runs on bare Node, as the operator's image
 * runs it. The loader alone costs about 90 MB of RSS, almost half of the operator's budget.
 */
import { main } from './cli.ts';

process.exitCode = await main();
