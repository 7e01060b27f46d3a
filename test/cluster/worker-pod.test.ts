// A worker pod's reports on its Render, on a real control plane (etcd, kube-apiserver v1.33): the
// pod's command (`framewright worker --render NAME`) with only the worker's Role, its movie in S3.
// Issue 28: a pod that finished keeps its result through an apiserver outage longer than the 15 s
// (1 + 2 + 4 + 8 s) it used to give its final report before exiting 1 and throwing the MP4 away;
// a retried pod does not take the Render's progress back to `preparing 0`.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { newId } from '../../lib/ids.ts';
import { loadKubeConfig, RendersClient } from '../../lib/kube/client.ts';
import { CRD_FILE, CRD_NAME } from '../../lib/kube/crd.ts';
import { movieObject, renderResource, renderResourceName } from '../../lib/kube/render-resource.ts';
import { movieOutputFormat } from '../../movie/output-kind.ts';
import { identityObjects } from '../../operator/rbac.ts';
import { tinyMovie } from '../pipeline/harness.ts';
import { testBucket, until } from '../services/cluster-fixture.ts';
import { type ControlPlane, startControlPlane } from '../services/control-plane.ts';
import { describeProcess, spawnFramewright } from '../services/serve-process.ts';

const NS = 'framewright';
const CRD_PATH = fileURLToPath(new URL(`../../${CRD_FILE}`, import.meta.url));
const s3Endpoint = process.env.TEST_S3_ENDPOINT;
/** Longer than the old budget of the final report (15 s), and than an apiserver's restart. */
const OUTAGE_MS = 25_000;

let cp: ControlPlane;
let renders: RendersClient;
let workerKubeconfig: string;
let s3: S3Client;
let s3Env: Record<string, string>;
let bucket: string;

before(
  async () => {
    assert.ok(s3Endpoint, 'TEST_S3_ENDPOINT is set by scripts/test.sh');
    ({ client: s3, env: s3Env, bucket } = await testBucket(s3Endpoint, 'fw-outage'));
    cp = await startControlPlane({ namespace: NS });
    await cp.kubectl(['apply', '-f', CRD_PATH]);
    await cp.kubectl(['wait', '--for=condition=Established', `crd/${CRD_NAME}`, '--timeout=60s']);
    const items = identityObjects('worker', NS);
    await cp.apply(...items);
    workerKubeconfig = await cp.serviceAccountKubeconfig(NS, 'framewright-worker');
    renders = new RendersClient(loadKubeConfig({ KUBECONFIG: cp.adminKubeconfig }), NS);
  },
  { timeout: 240_000 },
);

after(async () => {
  await cp?.stop();
});

/** A Render of a tiny movie of `durationSec`, its movie in the bucket, as the API creates it. */
async function createRender(durationSec: number) {
  const movie = tinyMovie({ duration: durationSec });
  const id = newId('rnd');
  const object = movieObject(id, movie);
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: object.key, Body: object.body }));
  const render = renderResource({
    render: {
      id,
      accountId: newId('acc'),
      mode: 'live',
      outputFormat: movieOutputFormat(movie),
      templateId: null,
      draft: false,
      watermark: false,
      width: movie.width,
      height: movie.height,
      fps: movie.fps,
      estimatedSec: durationSec,
    },
    movie: object,
    namespace: NS,
  });
  await renders.create(render);
  return { render, name: renderResourceName(id) };
}

/** The pod's command, as the node runs it, with the worker's identity. */
function spawnPod(name: string) {
  const pod = spawnFramewright(['worker', '--render', name], {
    ...s3Env,
    KUBECONFIG: workerKubeconfig,
    POD_NAMESPACE: NS,
    LOG_LEVEL: 'info',
    // node:test marks its file processes with this; the pod's node process is not one.
    NODE_TEST_CONTEXT: undefined,
  });
  const exited = new Promise<number | null>((resolve) => pod.child.once('exit', (code) => resolve(code)));
  return { pod, exited };
}

test('a finished worker keeps its result while the apiserver is away for longer than 15 s, then reports it', {
  timeout: 240_000,
}, async () => {
  // Long enough that the pod is still rendering when the apiserver goes (a few seconds here).
  const { render, name } = await createRender(4);
  const { pod, exited } = spawnPod(name);
  try {
    // Its first progress report: it has read its Render and the movie and renders now.
    await until('the pod to report progress', async () => (await renders.get(name)).status?.phase, 60_000, 100);
    const downAt = Date.now();
    await cp.restartApiserver(OUTAGE_MS);
    const upAfter = Date.now() - downAt;

    // The 90 s limit is cleared once the pod has exited (a pending timer kept this file's process alive).
    let limit: NodeJS.Timeout | undefined;
    const code = await Promise.race([
      exited,
      new Promise<'running'>((r) => {
        limit = setTimeout(() => r('running'), 90_000);
      }),
    ]).finally(() => clearTimeout(limit));
    assert.equal(code, 0, describeProcess(pod, 30));
    const log = pod.log();
    // The outcome met the outage (else this test proves nothing) and was kept until it went through.
    assert.match(log, /reporting the outcome failed; retrying/, log.slice(-3000));
    assert.match(log, /outcome reported/, log.slice(-3000));
    const status = (await renders.get(name)).status;
    assert.equal(status?.outputKey, render.spec.outputKey, JSON.stringify(status));
    assert.ok((status?.durationSec ?? 0) > 3.9, JSON.stringify(status));
    await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: render.spec.outputKey }));
    assert.ok(upAfter >= OUTAGE_MS, `the apiserver was away ${upAfter} ms`);
  } finally {
    if (pod.child.exitCode === null) pod.child.kill('SIGKILL');
  }
});

test('a retried pod never shows the Render going back (phase or progress) from what an earlier pod reported', {
  timeout: 180_000,
}, async () => {
  const { render, name } = await createRender(3);
  // What an earlier pod of this render reported before it was killed.
  await renders.patchStatus(name, { phase: 'rendering', progress: 46 });
  const { pod, exited } = spawnPod(name);
  const seen: string[] = [];
  let code: number | null | undefined;
  void exited.then((c) => {
    code = c;
  });
  try {
    for (const deadline = Date.now() + 120_000; code === undefined && Date.now() < deadline; ) {
      const s = (await renders.get(name)).status;
      const shown = `${s?.phase} ${s?.progress}`;
      if (seen.at(-1) !== shown) seen.push(shown);
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(code, 0, describeProcess(pod, 30));
    const last = (await renders.get(name)).status;
    assert.equal(last?.outputKey, render.spec.outputKey, JSON.stringify(last));
    const back = seen.filter((shown) => {
      const [phase, progress] = shown.split(' ');
      return phase !== 'rendering' || Number(progress) < 46;
    });
    assert.deepEqual(back, [], `what the Render showed, in order: ${seen.join(', ')}`);
    assert.ok(seen.length >= 1);
  } finally {
    if (pod.child.exitCode === null) pod.child.kill('SIGKILL');
  }
});
