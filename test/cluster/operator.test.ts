import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import type { V1Job, V1Pod } from '@kubernetes/client-node';
import postgres from 'postgres';
import sharp from 'sharp';
import { Webhook } from 'standardwebhooks';
import { KubernetesExecutor } from '../../api/execution/kubernetes-executor.ts';
import { loadKubeConfig, RendersClient } from '../../lib/kube/client.ts';
import { S3ObjectStore, type S3StoreOptions } from '../../lib/storage/s3-store.ts';
import { newWebhookSecret } from '../../lib/webhooks/signature.ts';
import { type Identity, identityObjects } from '../../operator/rbac.ts';
import { type Database, openDatabase } from '../../store/database.ts';
import { renderCredits } from '../../store/lifecycle/pricing.ts';
import { ensureWebhookSecret } from '../../store/lifecycle/webhook-outbox-repo.ts';
import { logger, newAccount } from '../api/helpers.ts';
import { freePort, tinyMovie } from '../pipeline/harness.ts';
import { insertQueuedRender, testBucket, until } from '../services/cluster-fixture.ts';
import { type ControlPlane, startControlPlane } from '../services/control-plane.ts';
import { buildImages, NODE_ADDRESS, type RealNode, realNodeUnavailable, startRealNode } from '../services/real-node.ts';
import { type ServeProcess, spawnFramewright, spawnServe, stopServe, untilReady } from '../services/serve-process.ts';
import { startTcpProxy, type TcpProxy } from '../services/tcp-proxy.ts';
import { assertSameAsOneMachine, longMovie } from './long-movie.ts';

/**
 * The cluster shape end to end, on a real kube-apiserver, etcd and Job controller and a real node
 * (kubelet, containerd: test/services/real-node.ts): the API (RENDER_EXECUTOR=kubernetes) creates
 * Renders, `framewright operator` (a child process, with only its Role's permissions) reconciles
 * them into Jobs, each pod runs `framewright worker --render NAME` in the worker image `make images`
 * built, with the worker's ServiceAccount, and the outcome lands in S3, in the Render's status and
 * in PostgreSQL, exactly once. The API and the operator run as processes of this checkout, so that
 * a test can stop, kill, restart and cut them off from the apiserver (a proxy that refuses);
 * test/chart/real-node.test.ts runs them as the chart's pods.
 */

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const NS = 'framewright';
const databaseUrl = process.env.TEST_DATABASE_URL;
const s3Endpoint = process.env.TEST_S3_ENDPOINT;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Child = ServeProcess;

const spawnOperator = (env: NodeJS.ProcessEnv): Child => spawnFramewright(['operator'], env);

async function stopChild(c: Child, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (c.child.exitCode !== null || c.child.signalCode !== null) return;
  const exited = new Promise((resolve) => c.child.once('exit', resolve));
  c.child.kill(signal);
  await Promise.race([exited, sleep(20_000).then(() => c.child.kill('SIGKILL'))]);
}

/** A kubeconfig like `file` whose server is `server` (the API reaches the apiserver through a proxy). */
/** A copy of a kubeconfig (JSON, test/services/control-plane.ts) whose clusters are reached at `server`. */
async function kubeconfigVia(file: string, server: string): Promise<string> {
  const config = JSON.parse(await readFile(file, 'utf8')) as { clusters: { cluster: { server: string } }[] };
  for (const c of config.clusters) c.cluster.server = server;
  const out = `${file}.via-proxy`;
  await writeFile(out, JSON.stringify(config));
  return out;
}

const unavailable = realNodeUnavailable();

describe('the cluster shape: API -> Render -> operator -> Job -> worker pod -> S3, Render status and Postgres', {
  timeout: 1_200_000,
  skip: unavailable && `no real node here: ${unavailable}`,
}, () => {
  let cp: ControlPlane;
  let node: RealNode;
  let db: Database;
  let admin: postgres.Sql;
  let dbName: string;
  let clusterDbUrl: string;
  let api: ServeProcess & { base: string };
  let apiProxy: TcpProxy;
  const operators: Child[] = [];
  let operatorEnv: NodeJS.ProcessEnv;
  let receiver: Server;
  const hooks: { body: string; headers: IncomingHttpHeaders }[] = [];
  let bucket: string;
  let s3: S3Client;
  const kubeconfigs = {} as Record<Identity, string>;
  let s3Options: Omit<S3StoreOptions, 'bucket'>;

  const kubectl = async (...args: string[]) => (await cp.kubectl(['-n', NS, ...args])).stdout;

  before(async () => {
    assert.ok(databaseUrl, 'TEST_DATABASE_URL is set by scripts/test.sh');
    assert.ok(s3Endpoint, 'TEST_S3_ENDPOINT is set by scripts/test.sh');
    // A database of its own: queued renders of other test files must not reach this cluster.
    dbName = `fw_cluster_${randomBytes(4).toString('hex')}`;
    admin = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${dbName}`);
    clusterDbUrl = databaseUrl.replace(/\/[^/]*$/, `/${dbName}`);
    db = await openDatabase({ databaseUrl: clusterDbUrl, dataDir: '.', logger, max: 2 });

    const testS3 = await testBucket(s3Endpoint as string, 'fw-cluster');
    ({ bucket, client: s3, options: s3Options } = testS3);
    const s3Env = testS3.env;

    await buildImages();
    cp = await startControlPlane({ namespace: NS, node: { name: 'fw-node', advertiseAddress: NODE_ADDRESS } });
    await cp.kubectl(['apply', '-f', path.join(REPO, 'crds/renders.framewright.dev.yaml')]);
    await cp.kubectl(['wait', '--for=condition=Established', '--timeout=60s', 'crd/renders.framewright.dev']);
    // Each identity gets exactly its Role (operator/rbac.ts), as the Helm chart binds it.
    const items = (['api', 'operator', 'worker'] as const).flatMap((id) => identityObjects(id, NS));
    await cp.apply(...items);
    for (const id of ['api', 'operator', 'worker'] as const) {
      kubeconfigs[id] = await cp.serviceAccountKubeconfig(NS, `framewright-${id}`);
    }

    node = await startRealNode(cp);
    // The worker pods' environment, as the chart gives it (a ConfigMap and a Secret the operator
    // names in each Job); they reach this machine's S3 server at the node's address.
    const podS3 = new URL(s3Endpoint as string);
    podS3.host = await node.expose(Number(podS3.port));
    const { S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, ...s3Settings } = s3Env;
    await cp.apply(
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'framewright-worker-env', namespace: NS },
        data: { ...s3Settings, S3_ENDPOINT: podS3.origin, ALLOW_PRIVATE_URLS: 'true', LOG_LEVEL: 'info' },
      },
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'framewright-worker', namespace: NS },
        stringData: { S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY },
      },
    );
    const workerImage = node.images.find((ref) => /\/framewright-worker:/.test(ref));
    assert.ok(workerImage, `the worker image is on the node: ${node.images.join(', ')}`);

    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        hooks.push({ body, headers: req.headers });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));

    // The API reaches the apiserver through a proxy that a test can make refuse connections.
    apiProxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(cp.server).port) });
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const served = spawnServe({
      ...s3Env,
      DATABASE_URL: clusterDbUrl,
      DATA_DIR: path.join(cp.dir, 'api-data'),
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: base,
      ALLOW_PRIVATE_URLS: 'true',
      RENDER_EXECUTOR: 'kubernetes',
      KUBE_NAMESPACE: NS,
      KUBECONFIG: await kubeconfigVia(kubeconfigs.api, apiProxy.url('https')),
      LOG_LEVEL: 'info',
    });
    api = { ...served, base };
    await untilReady(api, base);

    operatorEnv = {
      DATABASE_URL: clusterDbUrl,
      KUBECONFIG: kubeconfigs.operator,
      KUBE_NAMESPACE: NS,
      PUBLIC_BASE_URL: base,
      WORKER_IMAGE: workerImage,
      WORKER_IMAGE_PULL_POLICY: 'Never',
      WORKER_ENV_CONFIGMAP: 'framewright-worker-env',
      WORKER_ENV_SECRET: 'framewright-worker',
      // This node has 2 CPUs and no GPU.
      WORKER_GPUS: '0',
      WORKER_RESOURCES: JSON.stringify({ requests: { cpu: '250m', memory: '256Mi' }, limits: { memory: '2Gi' } }),
      LEASE_DURATION_SEC: '4',
      RENEW_DEADLINE_SEC: '3',
      RETRY_PERIOD_SEC: '1',
      JOB_TTL_SECONDS: '3600',
      // Movies of 100 s and more are spread over up to 4 pods; the other cases' movies stay on one.
      RENDER_MAX_SEGMENTS: '4',
      RENDER_SEGMENT_SECONDS: '25',
      LOG_LEVEL: 'info',
    };
    operators.push(spawnOperator({ ...operatorEnv, POD_NAME: 'operator-a' }));
  });

  after(async () => {
    for (const o of operators) await stopChild(o).catch(() => {});
    if (api) await stopServe(api).catch(() => {});
    await node?.stop();
    await apiProxy?.close();
    receiver?.close();
    await db?.close();
    await cp?.stop();
    if (admin) {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
      await admin.end();
    }
  });

  /** Diagnostics for a failing case: the operator's and the API's logs, the last pods' and the node's. */
  const logs = async () => {
    const pods = (await node.pods(NS).catch(() => [])).slice(-3);
    const podLogs = await Promise.all(
      pods.map(async (p) => {
        const log = await kubectl('logs', `pod/${p.metadata?.name}`, '--tail=40').catch((e: Error) => e.message);
        return `--- pod ${p.metadata?.name} (${JSON.stringify(ended(p) ?? p.status?.phase)}) ---\n${log.slice(-2000)}`;
      }),
    );
    return [
      ...operators.map((o, i) => `--- operator ${i} ---\n${o.log().slice(-3000)}`),
      `--- api ---\n${api.log().slice(-2000)}`,
      ...podLogs,
      node.logs(1500),
    ].join('\n');
  };
  /** How a pod's container ended: its exit code and the kubelet's reason. */
  const ended = (p: V1Pod) => {
    const st = p.status?.containerStatuses?.[0];
    const t = st?.state?.terminated ?? st?.lastState?.terminated;
    return t ? { exitCode: t.exitCode, reason: t.reason } : undefined;
  };
  /** The name of a pod of `prefix` that runs (its container started, not being deleted). */
  const runningPod = async (prefix: string) =>
    (await node.pods(NS, prefix)).find(
      (p) =>
        p.status?.phase === 'Running' &&
        p.status.containerStatuses?.[0]?.state?.running &&
        !p.metadata?.deletionTimestamp,
    )?.metadata?.name;
  /** Whether a pod of `prefix` still has a container that has not ended. */
  const anyRunning = async (prefix: string) =>
    (await node.pods(NS, prefix)).some((p) => p.status?.phase === 'Running' || p.status?.phase === 'Pending');

  async function post(key: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${api.base}/v1/renders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  async function row(id: string) {
    const [r] = await db.sql<
      {
        status: string;
        progress: number;
        chargedCredits: number;
        reservedCredits: number;
        error: { code: string; message: string; path?: string } | null;
        outputKey: string | null;
      }[]
    >`SELECT status, progress, charged_credits, reserved_credits, error, output_key FROM renders WHERE id = ${id}`;
    return r;
  }

  async function finished(id: string, timeoutMs = 120_000) {
    try {
      return await until(
        `render ${id} to finish`,
        async () => {
          const r = await row(id);
          return r && (r.status === 'done' || r.status === 'failed') ? r : undefined;
        },
        timeoutMs,
      );
    } catch (err) {
      throw new Error(`${(err as Error).message}\n${await logs()}`);
    }
  }

  const renderName = (id: string) => id.replace('_', '-');
  const job = async (name: string) =>
    JSON.parse(await kubectl('get', 'job', name, '-o', 'json').catch(() => 'null')) as V1Job | null;
  const jobsOf = async (name: string, stages = false) =>
    (JSON.parse(await kubectl('get', 'jobs', '-o', 'json')) as { items: V1Job[] }).items.filter(
      (j) => j.metadata?.name === name || (stages && j.metadata?.name?.startsWith(`${name}-`)),
    );
  /** Every Job of a render: the one of a whole render, or its prepare, segments and join Jobs. */
  const renderJobs = async (name: string) => (await jobsOf(name, true)).map((j) => j.metadata?.name);
  const balance = async (accountId: string) =>
    (await db.sql<{ creditBalance: number }[]>`SELECT credit_balance FROM accounts WHERE id = ${accountId}`)[0]
      ?.creditBalance;

  it('a render goes through the cluster: Job, pod, MP4 in S3, status in the Render and in Postgres, signed webhook', async () => {
    const { key, accountId } = await newAccount(db, { plan: 'pro', credits: 1000 });
    const secret = await ensureWebhookSecret(db.sql, accountId, newWebhookSecret);
    const { port } = receiver.address() as { port: number };
    const created = await post(key, {
      movie: tinyMovie({ duration: 2 }),
      webhook_url: `http://127.0.0.1:${port}/hook`,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id as string;
    const name = renderName(id);

    const done = await finished(id);
    assert.equal(done.status, 'done', JSON.stringify(done.error));
    assert.ok(done.chargedCredits > 0);
    assert.equal(done.reservedCredits, 0);
    assert.equal(await balance(accountId), 1000 - done.chargedCredits);
    assert.equal(done.outputKey, `renders/${id}.mp4`);
    const mp4 = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: `renders/${id}.mp4` }));
    const bytes = Buffer.from(
      await (mp4.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
    );
    assert.equal(bytes.subarray(4, 8).toString('latin1'), 'ftyp', 'an MP4 in the object store');

    // The Render tells the story: kubectl get shows the columns, describe shows the events.
    const status = await until('the Render to say done', async () => {
      const r = JSON.parse(await kubectl('get', 'render', name, '-o', 'json'));
      return r.status?.phase === 'done' ? r.status : undefined;
    });
    assert.equal(status.progress, 100);
    assert.equal(status.jobName, name);
    assert.equal(status.attempts, 1);
    assert.equal(status.outputKey, `renders/${id}.mp4`);
    assert.ok(
      status.conditions.some((c: { type: string; status: string }) => c.type === 'Complete' && c.status === 'True'),
    );
    const table = await kubectl('get', 'renders', '-o', 'wide');
    assert.match(
      table.split('\n')[0] ?? '',
      /NAME\s+STATUS\s+PROGRESS\s+DURATION\s+SEGMENTS\s+AGE\s+ACCOUNT\s+JOB\s+RENDERER\s+PODS/,
    );
    // One pod: no segments to count, the SEGMENTS cell is empty; it drew on this node's llvmpipe.
    assert.match(
      table,
      new RegExp(`${name}\\s+done\\s+100\\s+2s\\s+\\d+s\\s+${accountId}\\s+${name}\\s+ANGLE \\(.*llvmpipe.*\\)\\s+1`),
    );
    assert.equal(status.drawing?.software, true);
    const described = await kubectl('describe', 'render', name);
    assert.match(described, /JobCreated/);
    assert.match(described, /Completed/);

    // The Job ran one pod; its TTL was set only after the outcome was in Postgres.
    const j = await until('the Job TTL', async () => {
      const x = await job(name);
      return x?.spec?.ttlSecondsAfterFinished !== undefined ? x : undefined;
    });
    assert.equal(j.spec?.ttlSecondsAfterFinished, 3600);
    assert.equal(j.status?.succeeded, 1);

    const hook = await until('the webhook', async () => hooks.find((h) => h.body.includes(id)));
    const event = new Webhook(secret).verify(hook.body, hook.headers as Record<string, string>) as {
      type: string;
      data: { id: string; status: string; outputUrl: string };
    };
    assert.equal(event.type, 'render.completed');
    assert.equal(event.data.status, 'done');
    assert.match(event.data.outputUrl, new RegExp(`^${api.base}/v1/outputs/${id}`));
    const download = await fetch(event.data.outputUrl, { redirect: 'follow' });
    assert.equal(download.status, 200);
  });

  /** The segment pods of a render that ended, with their exit codes. */
  const segmentPods = async (name: string) =>
    (await node.pods(NS, `${name}-segments-`)).map((p) => ({
      pod: p.metadata?.name ?? '',
      exitCode: ended(p)?.exitCode,
    }));

  it('a long movie: prepare, 4 segment pods, join; the same frames and audio as the one-pod render, charged the same', async () => {
    const { key, accountId } = await newAccount(db, { plan: 'pro', credits: 1000 });
    const created = await post(key, { movie: await longMovie() });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id as string;
    const name = renderName(id);
    const done = await finished(id, 300_000);
    assert.equal(done.status, 'done', JSON.stringify(done.error));

    // Three Jobs in turn; the segments Job is Indexed with one pod per segment, each ran once.
    const prepare = await job(`${name}-prepare`);
    const segments = await job(`${name}-segments`);
    const joined = await job(`${name}-join`);
    assert.equal(prepare?.status?.succeeded, 1);
    assert.equal(segments?.spec?.completionMode, 'Indexed');
    assert.equal(segments?.spec?.completions, 4);
    assert.equal(segments?.spec?.backoffLimitPerIndex, 1);
    assert.equal(segments?.status?.succeeded, 4);
    assert.equal(joined?.status?.succeeded, 1);
    assert.equal(joined?.spec?.template.spec?.containers[0]?.resources?.limits?.['nvidia.com/gpu'], undefined);
    const ran = await segmentPods(name);
    assert.equal(ran.length, 4, JSON.stringify(ran));
    assert.ok(
      ran.every((h) => h.exitCode === 0),
      JSON.stringify(ran),
    );
    assert.equal(await job(name), null, 'no single Job');

    const status = await until('the Render to say done', async () => {
      const r = JSON.parse(await kubectl('get', 'render', name, '-o', 'json'));
      return r.status?.phase === 'done' ? r.status : undefined;
    });
    assert.equal(status.segments, 4);
    assert.equal(status.segmentsReady, '4/4');
    assert.equal(status.totalFrames, 1000);
    assert.deepEqual(status.segmentFrames, { '0': 200, '1': 300, '2': 200, '3': 300 });
    const table = await kubectl('get', 'renders');
    assert.match(table.split('\n')[0] ?? '', /NAME\s+STATUS\s+PROGRESS\s+DURATION\s+SEGMENTS\s+AGE/);
    assert.match(table, new RegExp(`${name}\\s+done\\s+100\\s+1m40s\\s+4/4`));

    // Charged as any render of its length, once.
    assert.equal(done.chargedCredits, renderCredits({ durationSec: 100, width: 160, height: 90, draft: false }));
    assert.equal(await balance(accountId), 1000 - done.chargedCredits);

    // The work objects are gone; the MP4 is the movie a single process renders from the same document.
    const work = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `work/${id}/` }));
    assert.equal(work.KeyCount ?? 0, 0, 'work objects removed after the join');
    await assertSameAsOneMachine({ s3, bucket, id, apiBase: api.base, key });
  });

  it('a segment pod killed: only its index runs again; the render is done and charged once', async () => {
    const { key, accountId } = await newAccount(db, { plan: 'pro', credits: 1000 });
    const created = await post(key, { movie: await longMovie() });
    const id = created.body.id as string;
    const name = renderName(id);
    const victim = await until('a segment pod to run', async () => runningPod(`${name}-segments-2-`), 240_000);
    await node.kill(NS, victim, 'SIGKILL');
    const done = await finished(id, 300_000);
    assert.equal(done.status, 'done', JSON.stringify(done.error));
    const pods = await segmentPods(name);
    const byIndex = (i: number) => pods.filter((h) => h.pod.startsWith(`${name}-segments-${i}-`));
    assert.deepEqual(
      [0, 1, 2, 3].map((i) => byIndex(i).length),
      [1, 1, 2, 1],
      pods.map((h) => `${h.pod}: ${h.exitCode}`).join(', '),
    );
    assert.equal(pods.find((h) => h.pod === victim)?.exitCode, 137);
    const segments = await job(`${name}-segments`);
    assert.equal(segments?.status?.failed, 1);
    assert.equal(segments?.status?.succeeded, 4);
    const ledger = await db.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM credit_ledger WHERE account_id = ${accountId} AND reason = 'render'`;
    assert.equal(ledger[0]?.n, 1, 'one charge');
    assert.equal(done.chargedCredits, renderCredits({ durationSec: 100, width: 160, height: 90, draft: false }));
  });

  it('a long movie with a bad asset in its last segment fails at once in prepare, with the path, refunded', async () => {
    const { key, accountId } = await newAccount(db, { plan: 'pro', credits: 1000 });
    const closed = await freePort();
    const movie = await longMovie([{ id: 'gone', type: 'image', src: `http://127.0.0.1:${closed}/gone.png` }]);
    const created = await post(key, { movie });
    const id = created.body.id as string;
    const name = renderName(id);
    const failed = await finished(id, 120_000);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error?.code, 'ASSET_UNREACHABLE', JSON.stringify(failed.error));
    assert.equal(failed.error?.path, 'scenes[2].elements[3].src');
    assert.equal(failed.chargedCredits, 0);
    assert.equal(await balance(accountId), 1000);
    const prepare = await job(`${name}-prepare`);
    assert.equal(prepare?.status?.failed, 1, 'one pod: no retry');
    assert.equal(prepare?.status?.conditions?.find((c) => c.type === 'Failed')?.reason, 'PodFailurePolicy');
    assert.equal(await job(`${name}-segments`), null, 'no segment pod ever started');
  });

  it('a worker pod killed with exit 137 is retried, and the render is done and charged once', async () => {
    const { key, accountId } = await newAccount(db, { plan: 'pro', credits: 1000 });
    const created = await post(key, { movie: tinyMovie({ duration: 20 }) });
    const id = created.body.id as string;
    const name = renderName(id);
    const pod = await until('the first pod to run', async () => runningPod(name), 60_000);
    await until('the pod to report progress', async () => {
      const r = await row(id);
      return r && r.status !== 'queued' ? r : undefined;
    });
    await node.kill(NS, pod, 'SIGKILL');
    const done = await finished(id);
    assert.equal(done.status, 'done', JSON.stringify(done.error));
    const killed = (await node.pods(NS, pod)).find((p) => p.metadata?.name === pod);
    assert.equal(killed && ended(killed)?.exitCode, 137);
    const status = JSON.parse(await kubectl('get', 'render', name, '-o', 'json')).status;
    assert.equal(status.attempts, 2);
    const ledger = await db.sql<{ n: number; sum: number }[]>`
      SELECT count(*)::int AS n, coalesce(sum(delta), 0)::int AS sum FROM credit_ledger
      WHERE account_id = ${accountId} AND reason = 'render'`;
    assert.equal(ledger[0]?.n, 1, 'one charge');
    assert.equal(await balance(accountId), 1000 - done.chargedCredits);
    assert.equal((await jobsOf(name)).length, 1, 'one Job, two pods');
  });

  it('a bad asset fails the render at once, without a retry, and releases the credits', async () => {
    const { key, accountId } = await newAccount(db, { plan: 'pro', credits: 1000 });
    const closed = await freePort(); // nothing listens there: the asset is unreachable
    const movie = tinyMovie({
      elements: [{ id: 'img', type: 'image', src: `http://127.0.0.1:${closed}/missing.png` }],
    });
    const created = await post(key, { movie });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id as string;
    const failed = await finished(id);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error?.code, 'ASSET_UNREACHABLE', JSON.stringify(failed.error));
    assert.equal(failed.error?.path, 'scenes[0].elements[0].src');
    assert.equal(failed.chargedCredits, 0);
    assert.equal(failed.reservedCredits, 0);
    assert.equal(await balance(accountId), 1000);
    const j = await job(renderName(id));
    assert.equal(j?.status?.failed, 1, 'one pod: no retry');
    assert.equal(j?.status?.conditions?.find((c) => c.type === 'Failed')?.reason, 'PodFailurePolicy');
  });

  it('kubectl delete render cancels it: the Job and its pod go, the row fails RENDER_CANCELLED, credits released', async () => {
    const { key, accountId } = await newAccount(db, { plan: 'pro', credits: 1000 });
    const id = (await post(key, { movie: tinyMovie({ duration: 60 }) })).body.id as string;
    const name = renderName(id);
    await until('the pod to run', async () => runningPod(name), 60_000);
    assert.ok((await renderJobs(name)).length >= 1, 'its Jobs run');
    await kubectl('delete', 'render', name, '--wait=true');
    const failed = await finished(id, 60_000);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error?.code, 'RENDER_CANCELLED');
    assert.equal(failed.reservedCredits, 0);
    assert.equal(await balance(accountId), 1000);
    await until('its Jobs to be gone', async () => (await renderJobs(name)).length === 0, 60_000);
    await until('the pod to stop', async () => !(await anyRunning(name)), 60_000);
  });

  it('POST /v1/renders/{id}/cancel while it renders: the Render, its Job and pod go; failed RENDER_CANCELLED, nothing charged', async () => {
    const { key, accountId } = await newAccount(db, { plan: 'pro', credits: 1000 });
    const id = (await post(key, { movie: tinyMovie({ duration: 60 }) })).body.id as string;
    const name = renderName(id);
    await until('the pod to run', async () => runningPod(name), 60_000);
    await until('the render to be rendering', async () => (await row(id))?.status === 'rendering', 60_000);
    const jobs = await renderJobs(name);
    assert.ok(jobs.length >= 1, `its Jobs run: ${jobs.join(', ')}`);
    const cancel = () =>
      fetch(`${api.base}/v1/renders/${id}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
    const res = await cancel();
    const body = (await res.json()) as { status: string; error: { code: string; message: string } | null };
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(body.status, 'failed');
    assert.equal(body.error?.code, 'RENDER_CANCELLED');
    // The API deleted the Render (its identity may, since cancellation); its Job and pod go with it.
    await until(
      'the Render to be deleted',
      async () => !(await kubectl('get', 'renders', '-o', 'name')).includes(name),
      30_000,
    );
    await until('its Jobs to be gone', async () => (await renderJobs(name)).length === 0, 60_000);
    await until('the pods to stop', async () => !(await anyRunning(name)), 60_000);
    const failed = await row(id);
    assert.equal(failed?.status, 'failed');
    assert.equal(failed?.error?.code, 'RENDER_CANCELLED');
    assert.match(failed?.error?.message ?? '', /cancelled by a request/, 'the API cancelled it, not the operator');
    assert.equal(failed?.chargedCredits, 0);
    assert.equal(failed?.reservedCredits, 0);
    assert.equal(await balance(accountId), 1000);
    // Nothing comes back: no Job is made again, and the row stays as the cancellation left it.
    await sleep(3000);
    assert.deepEqual(await renderJobs(name), [], 'no Job made again');
    assert.deepEqual(await row(id), failed);
    const again = await cancel();
    assert.equal(again.status, 200, 'cancelling again answers the same render');
    assert.equal(((await again.json()) as { status: string }).status, 'failed');
  });

  it('the operator killed mid-render and restarted makes no second Job and loses nothing', async () => {
    const { key, accountId } = await newAccount(db, { plan: 'pro', credits: 1000 });
    const id = (await post(key, { movie: tinyMovie({ duration: 10 }) })).body.id as string;
    const name = renderName(id);
    await until('the pod to run', async () => runningPod(name), 60_000);
    const first = operators.pop() as Child;
    await stopChild(first, 'SIGKILL');
    // The render finishes while no operator runs; the restarted one records it.
    await until('the Job to complete', async () => (await job(name))?.status?.succeeded === 1, 120_000);
    assert.equal((await row(id))?.status !== 'done', true, 'nobody recorded it yet');
    operators.push(spawnOperator({ ...operatorEnv, POD_NAME: 'operator-b' }));
    const done = await finished(id, 90_000);
    assert.equal(done.status, 'done', JSON.stringify(done.error));
    assert.equal((await jobsOf(name)).length, 1);
    assert.equal(await balance(accountId), 1000 - done.chargedCredits);
  });

  it('two operators: one leads; when it dies the other takes over within the lease', async () => {
    operators.push(spawnOperator({ ...operatorEnv, POD_NAME: 'operator-c' }));
    const lease = async () =>
      JSON.parse(await kubectl('get', 'lease', 'framewright-operator', '-o', 'json')).spec as {
        holderIdentity?: string;
        acquireTime?: string;
      };
    const leader = await until('a leader', async () => (await lease()).holderIdentity || undefined);
    assert.equal(leader, 'operator-b', 'the running leader keeps the lease');
    const b = operators.find((o) => o.log().includes('operator-b')) ?? (operators[0] as Child);
    const killedAt = Date.now();
    await stopChild(b, 'SIGKILL');
    operators.splice(operators.indexOf(b), 1);
    const taken = await until(
      'operator-c to lead',
      async () => {
        const spec = await lease();
        return spec.holderIdentity === 'operator-c' ? spec : undefined;
      },
      30_000,
    );
    // Measured on the Lease (the new holder's own acquireTime), not on how fast kubectl polls: the
    // Lease expires 4 s after the dead leader's last renewal, and the other tries every second.
    const took = Date.parse(taken.acquireTime ?? '') - killedAt;
    assert.ok(took <= 4_000 + 3 * 1_000, `took over ${took} ms after the leader died (lease 4 s, retry 1 s)`);
    const { key } = await newAccount(db, { plan: 'pro', credits: 1000 });
    const id = (await post(key, { movie: tinyMovie({ duration: 1 }) })).body.id as string;
    assert.equal((await finished(id)).status, 'done');
  });

  it('SIGTERM: the leader hands the Lease over instead of letting it expire, and exits 0', async () => {
    const lease = async () =>
      JSON.parse(await kubectl('get', 'lease', 'framewright-operator', '-o', 'json')).spec as {
        holderIdentity?: string;
      };
    assert.equal((await lease()).holderIdentity, 'operator-c');
    const c = operators.find((o) => o.log().includes('operator-c')) as Child;
    const d = spawnOperator({ ...operatorEnv, POD_NAME: 'operator-d' });
    operators.push(d);
    await until('operator-d to start', async () => d.log().includes('operator started'));
    const exited = new Promise<number | null>((resolve) => c.child.once('exit', (code) => resolve(code)));
    c.child.kill('SIGTERM');
    assert.equal(await exited, 0, c.log().slice(-2000));
    operators.splice(operators.indexOf(c), 1);
    // Had it only stopped, the Lease would name operator-c until it expired (4 s after its last
    // renewal); released, it names nobody, or already operator-d.
    assert.notEqual((await lease()).holderIdentity, 'operator-c', 'the Lease was released at shutdown');
    await until('operator-d to lead', async () => (await lease()).holderIdentity === 'operator-d', 30_000);
  });

  it('the apiserver restarted: the informers recover and the next render runs', async () => {
    await cp.restartApiserver();
    const { key } = await newAccount(db, { plan: 'pro', credits: 1000 });
    const id = (await post(key, { movie: tinyMovie({ duration: 1 }) })).body.id as string;
    assert.equal((await finished(id)).status, 'done');
  });

  it('the apiserver unreachable when the render is made: 201, and the Render is created once it answers', async () => {
    const { key } = await newAccount(db, { plan: 'pro', credits: 1000 });
    apiProxy.refuse = true;
    apiProxy.cut();
    const created = await post(key, { movie: tinyMovie({ duration: 1 }) });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id as string;
    const refusedFrom = apiProxy.accepted;
    await sleep(1_000);
    assert.equal((await row(id))?.status, 'queued');
    assert.ok(apiProxy.accepted > refusedFrom, 'the API tried the apiserver, through the proxy, and was refused');
    apiProxy.refuse = false;
    const done = await finished(id, 120_000);
    assert.equal(done.status, 'done', JSON.stringify(done.error));
  });

  it('a Render without a render row is removed', async () => {
    const orphan = 'rnd-0000000000zzzzzzzzzzzzzzzz';
    const render = {
      apiVersion: 'framewright.dev/v1alpha1',
      kind: 'Render',
      metadata: { name: orphan, namespace: NS },
      spec: {
        renderId: orphan.replace('-', '_'),
        accountId: 'acc_0000000000zzzzzzzzzzzzzzzz',
        mode: 'live',
        movieKey: 'movies/none.json',
        movieBytes: 1,
        movieSha256: '0'.repeat(64),
        outputKey: 'renders/none.mp4',
        width: 320,
        height: 180,
        fps: 15,
        draft: false,
        watermark: false,
        estimatedDurationSec: 1,
      },
    };
    await cp.apply(render);
    await until(
      'the orphan Render to be deleted',
      async () => {
        const out = await kubectl('get', 'renders', '-o', 'name');
        return !out.includes(orphan);
      },
      30_000,
    );
    assert.equal((await jobsOf(orphan)).length, 0, 'no Job was made for it');
  });

  it('a 5 MB movie: the Render stays small (the movie is in the object store) and the render is done', async () => {
    // The API takes at most 1 MiB per request and 5,000 characters per string variable, but a
    // resolved template can be larger, and the delivery must not depend on those limits. So the
    // row is written by the store and handed to the executor the API runs, as after gating.
    // Six images of noise (which does not compress): each a PNG of about 0.7 MB, under the
    // document's 1,000,000-character limit per src as base64, 5.5 MB together.
    const elements = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const png = await sharp(randomBytes(480 * 480 * 3), { raw: { width: 480, height: 480, channels: 3 } })
          .png()
          .toBuffer();
        return {
          id: `img${i}`,
          type: 'image',
          src: `data:image/png;base64,${png.toString('base64')}`,
          width: 100,
          height: 90,
          position: { x: (i % 3) * 100, y: Math.floor(i / 3) * 90 },
        };
      }),
    );
    const movie = tinyMovie({ elements });
    const { accountId, keyId } = await newAccount(db, { plan: 'pro', credits: 1000 });
    const queued = await insertQueuedRender(db.sql, { accountId, keyId, movie });
    const kc = loadKubeConfig({ KUBECONFIG: kubeconfigs.api });
    const executor = new KubernetesExecutor({
      db,
      objects: new S3ObjectStore({ ...s3Options, bucket }),
      renders: new RendersClient(kc, NS),
      namespace: NS,
      logger,
    });
    await executor.ensureRender(queued); // what submit() starts in the background
    const [stored] = await db.sql<{ bytes: number }[]>`
      SELECT octet_length(movie::text)::int AS bytes FROM renders WHERE id = ${queued.id}`;
    assert.ok((stored?.bytes ?? 0) > 5_000_000, `the movie is over 5 MB (${stored?.bytes} bytes)`);
    const render = JSON.parse(await kubectl('get', 'render', renderName(queued.id), '-o', 'json'));
    const size = JSON.stringify(render).length;
    assert.ok(size < 10_000, `the Render is ${size} bytes`);
    assert.ok(render.spec.movieBytes > 5_000_000);
    const done = await finished(queued.id);
    assert.equal(done.status, 'done', JSON.stringify(done.error));
  });

  it('each identity can do what its Role grants and nothing more', async () => {
    const as = (id: Identity, ...args: string[]) =>
      cp.kubectl(['--kubeconfig', kubeconfigs[id], '-n', NS, ...args]).then(
        () => 'allowed',
        (err: Error) => (/forbidden/i.test(err.message) ? 'forbidden' : err.message),
      );
    const can = (id: Identity, verb: string, resource: string, ...flags: string[]) =>
      cp.kubectl(['--kubeconfig', kubeconfigs[id], '-n', NS, 'auth', 'can-i', verb, resource, ...flags]).then(
        (r) => r.stdout.trim(),
        // `can-i` answers "no" on stdout and exits 1; the helper's error carries only stderr.
        (err: Error) => (/exited 1/.test(err.message) ? 'no' : err.message),
      );
    assert.equal(await as('worker', 'get', 'renders'), 'forbidden', 'a worker may not list Renders');
    assert.equal(await as('worker', 'get', 'jobs'), 'forbidden');
    assert.equal(await as('worker', 'get', 'secrets'), 'forbidden');
    assert.equal(await can('api', 'delete', 'renders.framewright.dev'), 'yes', 'the API deletes a cancelled Render');
    assert.equal(await can('api', 'delete', 'jobs.batch'), 'no', 'never a Job');
    assert.equal(await as('api', 'get', 'jobs'), 'forbidden');
    assert.equal(await as('operator', 'get', 'secrets'), 'forbidden');
    // Pods: listed once a Job failed, to say why (OOMKilled); never one pod read, watched or entered.
    assert.equal(await can('operator', 'list', 'pods'), 'yes');
    assert.equal(await can('operator', 'get', 'pods'), 'no');
    assert.equal(await can('operator', 'watch', 'pods'), 'no');
    assert.equal(await can('operator', 'create', 'pods', '--subresource=exec'), 'no');
    assert.equal(await can('operator', 'get', 'pods', '--subresource=log'), 'no');
    assert.equal(await can('operator', 'create', 'jobs.batch'), 'yes');
    assert.equal(await can('worker', 'patch', 'renders.framewright.dev', '--subresource=status'), 'yes');
    assert.equal(await can('worker', 'patch', 'renders.framewright.dev'), 'no', 'a worker cannot change a spec');
    assert.equal(await can('api', 'create', 'renders.framewright.dev'), 'yes');
  });

  // Last: it replaces the operator by one with a short RENDER_TTL_SECONDS.
  it('a finished Render is deleted RENDER_TTL_SECONDS after it finished; the render stays in the API', async () => {
    for (const o of operators.splice(0)) await stopChild(o);
    operators.push(spawnOperator({ ...operatorEnv, POD_NAME: 'operator-ttl', RENDER_TTL_SECONDS: '3' }));
    const { key } = await newAccount(db, { plan: 'pro', credits: 1000 });
    const id = (await post(key, { movie: tinyMovie({ duration: 1 }) })).body.id as string;
    const name = renderName(id);
    assert.equal((await finished(id)).status, 'done');
    const status = await until('the Render to say done', async () => {
      const r = JSON.parse(await kubectl('get', 'render', name, '-o', 'json'));
      return r.status?.phase === 'done' ? r.status : undefined;
    });
    // Deleted once the TTL ran out (the pass that finished it asked to be called back then).
    await until(
      'the Render to be deleted',
      async () => ((await kubectl('get', 'renders', '-o', 'name')).includes(name) ? undefined : true),
      30_000,
    );
    const gone = Date.now() - Date.parse(status.completionTime);
    assert.ok(gone >= 3000, `deleted ${gone} ms after it finished, not before its TTL`);
    const res = await fetch(`${api.base}/v1/renders/${id}`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { status: string }).status, 'done', 'the render itself is kept');
  });
});
