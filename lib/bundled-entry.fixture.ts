/**
 * A child entry for bundled-entry.test.ts: imports one of our TypeScript modules and a package,
 * and reports what it sees, so the test knows the bundle runs on bare Node.
 */
import colors from 'color-name';
import { ERROR_CATALOG } from './errors.ts';

const typed: number = Object.keys(ERROR_CATALOG).length;
// Its own URL, not the bundle's: code that finds files beside itself works bundled too.
process.send?.({ codes: typed, red: colors.red, loaders: process.execArgv, url: import.meta.url });
process.disconnect?.();
