/**
 * Writes the Render CRD (crds/renders.framewright.dev.yaml, and the Helm chart's copy) from the
 * TypeBox schemas of lib/kube/render-resource.ts. `make crds`; lib/kube/crd.test.ts fails while
 * either file is stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CHART_CRD_FILE, CRD_FILE, renderCrdYaml } from '../lib/kube/crd.ts';

for (const file of [CRD_FILE, CHART_CRD_FILE]) {
  writeFileSync(fileURLToPath(new URL(`../${file}`, import.meta.url)), renderCrdYaml());
  process.stdout.write(`wrote ${file}\n`);
}
