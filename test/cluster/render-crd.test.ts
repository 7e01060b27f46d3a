// The Render CRD and its client on a real control plane (etcd, kube-apiserver v1.33): the
// generated file applies, kubectl shows the columns and descriptions, the spec is immutable, status
// patches land, and a movie travels by object-store reference because etcd would refuse it inline.
import assert from 'node:assert/strict';
import https from 'node:https';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { newId } from '../../lib/ids.ts';
import {
  isAlreadyExists,
  isConflict,
  isInvalid,
  isNotFound,
  kubeStatus,
  loadKubeConfig,
  RendersClient,
} from '../../lib/kube/client.ts';
import { CRD_FILE, CRD_NAME, renderCrd } from '../../lib/kube/crd.ts';
import {
  API_VERSION,
  GROUP,
  LABELS,
  movieObject,
  PLURAL,
  type Render,
  type RenderResourceRow,
  renderResource,
  renderResourceName,
  VERSION,
} from '../../lib/kube/render-resource.ts';
import { type ControlPlane, startControlPlane } from '../services/control-plane.ts';

const NS = 'framewright';
const CRD_PATH = fileURLToPath(new URL(`../../${CRD_FILE}`, import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let cp: ControlPlane;
let renders: RendersClient;
let custom: CustomObjectsApi;

function row(overrides: Partial<RenderResourceRow> = {}): RenderResourceRow {
  return {
    id: newId('rnd'),
    accountId: newId('acc'),
    mode: 'live',
    templateId: null,
    draft: false,
    watermark: false,
    outputFormat: 'mp4',
    width: 1280,
    height: 720,
    fps: 30,
    estimatedSec: 12.5,
    ...overrides,
  };
}

function resourceFor(r: RenderResourceRow, movie: unknown = { scenes: [] }): Render {
  return renderResource({ render: r, movie: movieObject(r.id, movie), namespace: NS });
}

/** A kubectl failure's stderr (the helper throws with it), or undefined when kubectl succeeded. */
async function kubectlRefusal(args: string[], input?: string): Promise<string | undefined> {
  try {
    await cp.kubectl(args, input);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** Retries `probe` until it returns a value (the apiserver publishes a new CRD's OpenAPI lazily). */
async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms (last error: ${String(last)})`);
    await sleep(250);
  }
}

/** A GET of `path` as the apiserver's meta.k8s.io Table (what kubectl prints from), parsed. */
async function asTable(path: string): Promise<unknown> {
  const access = loadKubeConfig({ KUBECONFIG: cp.adminKubeconfig });
  const opts: https.RequestOptions = { headers: {} };
  await access.applyToHTTPSOptions(opts);
  const url = new URL(path, access.getCurrentCluster()?.server);
  const text = await new Promise<string>((resolve, reject) => {
    const req = https.get(
      url,
      { ...opts, headers: { ...opts.headers, accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`${res.statusCode}: ${body}`))));
      },
    );
    req.on('error', reject);
  });
  return JSON.parse(text);
}

/** Rows of `kubectl get` output as column -> value, split on the header's column starts. */
function table(stdout: string): Record<string, string>[] {
  const [header = '', ...lines] = stdout.trimEnd().split('\n');
  const starts = [...header.matchAll(/\S+/g)].map((m) => ({ name: m[0], at: m.index ?? 0 }));
  return lines.map((line) =>
    Object.fromEntries(starts.map((c, i) => [c.name, line.slice(c.at, starts[i + 1]?.at ?? line.length).trim()])),
  );
}

before(
  async () => {
    cp = await startControlPlane({ namespace: NS });
    const applied = await cp.kubectl(['apply', '-f', CRD_PATH]);
    // A schema the apiserver had to correct or prune shows as a warning: the generator must not cause one.
    assert.doesNotMatch(applied.stderr, /warning/i, applied.stderr);
    await cp.kubectl(['wait', '--for=condition=Established', `crd/${CRD_NAME}`, '--timeout=60s']);
    renders = new RendersClient(loadKubeConfig({ KUBECONFIG: cp.adminKubeconfig }), NS);
    // client-node's own client, for the cases that show what it does by itself.
    const kc = new KubeConfig();
    kc.loadFromFile(cp.adminKubeconfig);
    custom = kc.makeApiClient(CustomObjectsApi);
  },
  { timeout: 240_000 },
);

after(async () => {
  await cp?.stop();
});

test('the generated CRD is Established with its names accepted', async () => {
  const { stdout } = await cp.kubectl(['get', 'crd', CRD_NAME, '-o', 'json']);
  const crd = JSON.parse(stdout) as { status: { conditions: { type: string; status: string }[] } };
  const conditions = Object.fromEntries(crd.status.conditions.map((c) => [c.type, c.status]));
  assert.equal(conditions.Established, 'True');
  assert.equal(conditions.NamesAccepted, 'True');
  assert.equal(conditions.NonStructuralSchema, undefined, 'the schema is structural');
});

test('a Render created through the client: defaults, kubectl columns, short names and category', async () => {
  const r = row();
  const created = await renders.create(resourceFor(r));
  const name = renderResourceName(r.id);
  assert.equal(created.metadata.name, name);
  assert.equal(created.spec.maxAttempts, 2);
  assert.ok(!('templateId' in created.spec));

  const plain = table((await cp.kubectl(['get', 'renders'])).stdout);
  const mine = plain.find((x) => x.NAME === name);
  assert.ok(mine, JSON.stringify(plain));
  assert.deepEqual(Object.keys(mine), ['NAME', 'STATUS', 'PROGRESS', 'DURATION', 'SEGMENTS', 'AGE']);
  assert.match(mine.AGE ?? '', /^\d+s$/);

  const wide = table((await cp.kubectl(['get', 'renders', '-o', 'wide'])).stdout).find((x) => x.NAME === name);
  assert.deepEqual(Object.keys(wide ?? {}), [
    'NAME',
    'STATUS',
    'PROGRESS',
    'DURATION',
    'SEGMENTS',
    'AGE',
    'ACCOUNT',
    'JOB',
    'RENDERER',
    'PODS',
  ]);
  assert.equal(wide?.ACCOUNT, r.accountId);

  assert.match((await cp.kubectl(['get', 'rnd', name])).stdout, new RegExp(name));
  assert.match(
    (await cp.kubectl(['get', 'framewright', '-o', 'name'])).stdout,
    new RegExp(`render\\.${GROUP.replace('.', '\\.')}/${name}`),
  );

  assert.ok(isAlreadyExists(await renders.create(resourceFor(r)).catch((e: unknown) => e)));
  const byAccount = await renders.list(`${LABELS.account}=${r.accountId}`);
  assert.deepEqual(
    byAccount.map((x) => x.metadata.name),
    [name],
  );
  const got = await renders.get(name);
  assert.equal(got.apiVersion, API_VERSION);
  assert.deepEqual(got.spec, created.spec);
});

test('kubectl explain prints the descriptions of the TypeBox schemas', async () => {
  const out = await eventually('kubectl explain render.spec', async () => {
    const { stdout } = await cp.kubectl(['explain', 'render.spec']);
    return stdout.includes('movieKey') ? stdout : undefined;
  });
  const spec = renderCrd().spec.versions[0]?.schema.openAPIV3Schema.properties?.spec;
  for (const [field, schema] of Object.entries(spec?.properties ?? {})) {
    assert.match(out, new RegExp(`\\b${field}\\b`), field);
    // kubectl wraps lines: compare the description's first words.
    const words = (schema.description ?? '').split(/\s+/).slice(0, 4).join(' ');
    assert.ok(out.replace(/\s+/g, ' ').includes(words), `${field}: "${words}" not in\n${out}`);
  }
  const status = (await cp.kubectl(['explain', 'render.status.phase'])).stdout;
  assert.match(status, /queued \(accepted, no pod running yet\)/);
});

test('the spec cannot change after creation (CEL), metadata can; the name must stand for the id', async () => {
  const r = row();
  const name = renderResourceName(r.id);
  await renders.create(resourceFor(r));
  const refused = await kubectlRefusal(['patch', 'render', name, '--type=merge', '-p', '{"spec":{"draft":true}}']);
  assert.match(refused ?? 'accepted', /spec is immutable/);
  await cp.kubectl(['label', 'render', name, 'example=yes']);
  assert.equal((await renders.get(name)).spec.draft, false);

  const other = resourceFor(row());
  other.metadata.name = 'rnd-not-its-id';
  const err = await renders.create(other).catch((e: unknown) => e);
  assert.ok(isInvalid(err), String(err));
  assert.match(String(err), /metadata\.name must be spec\.renderId/);
});

test('patchStatus merges into the status subresource and shows in the columns', async (t) => {
  const r = row();
  const name = renderResourceName(r.id);
  await renders.create(resourceFor(r));

  const patched = await renders.patchStatus(name, {
    phase: 'rendering',
    progress: 42,
    durationSec: 12.5,
    attempts: 1,
    jobName: name,
    startTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    drawing: {
      vendor: 'Google Inc. (NVIDIA Corporation)',
      renderer: 'ANGLE (NVIDIA Corporation, NVIDIA L4)',
      software: false,
    },
  });
  assert.equal(patched.status?.progress, 42);
  const wide = table((await cp.kubectl(['get', 'renders', name, '-o', 'wide'])).stdout)[0];
  assert.deepEqual(
    [wide?.STATUS, wide?.PROGRESS, wide?.DURATION, wide?.JOB, wide?.RENDERER, wide?.PODS],
    ['rendering', '42', '12.5s', name, 'ANGLE (NVIDIA Corporation, NVIDIA L4)', '1'],
  );

  // The exact length stays in durationSec; the column prints it rounded to 10 ms, whoever wrote it.
  const third = await renders.patchStatus(name, { durationSec: 10.1 / 3 });
  assert.equal(third.status?.durationSec, 10.1 / 3);
  assert.equal(third.status?.duration, '3.37s');
  assert.equal(table((await cp.kubectl(['get', 'renders', name])).stdout)[0]?.DURATION, '3.37s');
  await renders.patchStatus(name, { durationSec: 160 });
  // The apiserver's own Table, as every client (kubectl, dashboards) gets it: the cells, typed.
  const tableRes = (await asTable(`/apis/${GROUP}/${VERSION}/namespaces/${NS}/${PLURAL}/${name}`)) as {
    columnDefinitions: { name: string; type: string }[];
    rows: { cells: unknown[] }[];
  };
  const columns = tableRes.columnDefinitions.map((c) => `${c.name}:${c.type}`);
  assert.deepEqual(columns, [
    'Name:string',
    'Status:string',
    'Progress:integer',
    'Duration:string',
    'Segments:string',
    'Age:date',
    'Account:string',
    'Job:string',
    'Renderer:string',
    'Pods:integer',
  ]);
  assert.equal(tableRes.rows[0]?.cells[3], '2m40s');

  // A merge patch keeps what it does not name and removes what it sets to null.
  await renders.patchStatus(name, { error: { code: 'RENDER_FAILED', message: 'x' } });
  const merged = await renders.patchStatus(name, { progress: 50, error: null });
  assert.equal(merged.status?.phase, 'rendering');
  assert.equal(merged.status?.progress, 50);
  assert.equal(merged.status?.error, undefined);

  // Optimistic concurrency: a patch based on an old resourceVersion is a Conflict.
  const stale = patched.metadata.resourceVersion;
  assert.ok(stale);
  const conflict = await renders
    .patchStatus(name, { progress: 60 }, { resourceVersion: stale })
    .catch((e: unknown) => e);
  assert.ok(isConflict(conflict), String(conflict));

  // The schema holds on the status too.
  assert.ok(isInvalid(await renders.patchStatus(name, { progress: 101 }).catch((e: unknown) => e)));

  // Why patchStatus sets the content type: client-node (1.4.0, 2.0.1) alone sends application/json-patch+json,
  // and the apiserver reads the merge-patch body as a (malformed) JSON Patch.
  const bare = await custom
    .patchNamespacedCustomObjectStatus({
      group: GROUP,
      version: VERSION,
      namespace: NS,
      plural: PLURAL,
      name,
      body: { status: { progress: 70 } },
    })
    .catch((e: unknown) => e);
  const bareStatus = kubeStatus(bare);
  t.diagnostic(`without the merge-patch content type: ${JSON.stringify(bareStatus)}`);
  assert.ok(bareStatus && bareStatus.code >= 400 && bareStatus.code < 500, String(bare));
  assert.equal((await renders.get(name)).status?.progress, 50);
});

test('get and delete of a missing Render are NotFound', async () => {
  const r = row();
  const name = renderResourceName(r.id);
  assert.ok(isNotFound(await renders.get(name).catch((e: unknown) => e)));
  await renders.create(resourceFor(r));
  await renders.delete(name);
  await eventually('the Render to go', async () =>
    isNotFound(await renders.get(name).catch((e: unknown) => e)) ? true : undefined,
  );
  assert.ok(isNotFound(await renders.delete(name).catch((e: unknown) => e)));
});

test('a 5 MB movie travels by object-store reference; inline, the apiserver and etcd refuse it', async (t) => {
  // A movie whose images are data: URLs: base64 makes 3.75 MB of pixels 5 MB of JSON.
  const picture = Buffer.alloc(3_750_000, 7).toString('base64');
  const movie = { version: 1, scenes: [{ elements: [{ type: 'image', src: `data:image/png;base64,${picture}` }] }] };
  const r = row();
  const stored = movieObject(r.id, movie);
  assert.ok(stored.bytes > 5_000_000, `${stored.bytes}`);
  const created = await renders.create(renderResource({ render: r, movie: stored, namespace: NS }));
  assert.equal(created.spec.movieBytes, stored.bytes);
  const objectBytes = Buffer.byteLength(JSON.stringify(created));
  assert.ok(objectBytes < 4096, `the stored Render is ${objectBytes} bytes`);
  t.diagnostic(`movie ${stored.bytes} bytes in the object store; the Render as stored ${objectBytes} bytes`);

  // The same movie inline (a CRD that keeps an unknown `movie`: what the spec would be otherwise).
  const inline = renderCrd();
  inline.metadata.name = `inlinerenders.test.${GROUP}`;
  inline.spec.group = `test.${GROUP}`;
  inline.spec.names = {
    ...inline.spec.names,
    kind: 'InlineRender',
    listKind: 'InlineRenderList',
    plural: 'inlinerenders',
    singular: 'inlinerender',
    shortNames: [],
    categories: [],
  };
  const version = inline.spec.versions[0];
  assert.ok(version?.schema.openAPIV3Schema.properties?.spec?.properties);
  version.schema.openAPIV3Schema['x-kubernetes-validations'] = [];
  version.schema.openAPIV3Schema.properties.spec.properties.movie = {
    type: 'object',
    description: 'The movie inline.',
    'x-kubernetes-preserve-unknown-fields': true,
  } as never;
  await cp.apply(inline);
  await cp.kubectl(['wait', '--for=condition=Established', `crd/${inline.metadata.name}`, '--timeout=60s']);
  const createInline = async (bytes: number) => {
    const m = { scenes: [{ src: `data:image/png;base64,${'A'.repeat(bytes)}` }] };
    const rr = row();
    const body = { ...resourceFor(rr), apiVersion: `test.${GROUP}/${VERSION}`, kind: 'InlineRender' };
    (body.spec as Record<string, unknown>).movie = m;
    return custom
      .createNamespacedCustomObject({
        group: `test.${GROUP}`,
        version: VERSION,
        namespace: NS,
        plural: 'inlinerenders',
        body,
      })
      .then(
        () => undefined,
        (e: unknown) => kubeStatus(e) ?? { code: 0, reason: undefined, message: String(e) },
      );
  };
  // Small movies fit inline...
  assert.equal(await createInline(500_000), undefined);
  // ...past etcd's 1.5 MiB request limit the write fails in etcd...
  const overEtcd = await createInline(2_000_000);
  assert.ok(overEtcd, 'a 2 MB inline movie was stored');
  assert.match(overEtcd.message, /request is too large/, JSON.stringify(overEtcd));
  // ...and a 5 MB one never gets past the apiserver's 3 MiB request body limit.
  const overApi = await createInline(5_000_000);
  t.diagnostic(`inline 2 MB: ${JSON.stringify(overEtcd)}; inline 5 MB: ${JSON.stringify(overApi)}`);
  assert.equal(overApi?.code, 413, JSON.stringify(overApi));
  assert.match(overApi?.message ?? '', /Request entity too large/i);
});
