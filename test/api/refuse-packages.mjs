// Loaded with --import (through NODE_OPTIONS) by test/api/cli-help.test.ts: an import of any
// package named in FW_REFUSE_PACKAGES (comma-separated) throws, naming it. A command that runs
// to its own error with a package refused never loaded it.
import { registerHooks } from 'node:module';

const refused = (process.env.FW_REFUSE_PACKAGES ?? '').split(',').filter(Boolean);

registerHooks({
  resolve(specifier, context, next) {
    const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
    if (refused.includes(name)) throw new Error(`refused package ${name} (imported by ${context.parentURL})`);
    return next(specifier, context);
  },
});
