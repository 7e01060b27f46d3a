// Loaded with --import (through NODE_OPTIONS, so the worker processes load it too): every
// resolution that lands in one of package.json's devDependencies throws. The built CLI must run
// with production packages only, as it does in an image.
import { readFileSync } from 'node:fs';
import { register } from 'node:module';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
register('./refuse-dev-packages-hooks.mjs', {
  parentURL: import.meta.url,
  data: { devPackages: Object.keys(pkg.devDependencies ?? {}) },
});
