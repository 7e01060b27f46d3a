/**
 * A child entry for bundled-entry.test.ts: imports one of our TypeScript modules and a package,
 * and reports what it sees, so the test knows the bundle runs on bare Node.
 */
import colors from 'color-name';
import { ERROR_CATALOG } from './errors.ts';

const typed: number = Object.keys(ERROR_CATALOG).length;
process.send?.({ codes: typed, red: colors.red, loaders: process.execArgv });
process.disconnect?.();
