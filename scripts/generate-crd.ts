/**
 * Writes the Render CRD (crds/renders.framewright.dev.yaml) from the TypeBox schemas of
 * lib/kube/render-resource.ts. `make crds`; lib/kube/crd.test.ts fails while the file is stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CRD_FILE, renderCrdYaml } from '../lib/kube/crd.ts';

const target = fileURLToPath(new URL(`../${CRD_FILE}`, import.meta.url));
writeFileSync(target, renderCrdYaml());
process.stdout.write(`wrote ${CRD_FILE}\n`);
