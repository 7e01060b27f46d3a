import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { identityObjects } from '../../operator/rbac.ts';
import { type Database, openDatabase } from '../../store/database.ts';
import { logger, newAccount } from '../api/helpers.ts';
import { freePort, tinyMovie } from '../pipeline/harness.ts';
import { testBucket, until } from '../services/cluster-fixture.ts';
import { type ControlPlane, startControlPlane } from '../services/control-plane.ts';
import { NodeHarness } from '../services/node-harness.ts';
import { type ServeProcess, spawnFramewright, stopServe, untilReady } from '../services/serve-process.ts';
import { type Exposition, scrape } from './exposition.ts';

/**
 * The operator's and the API's listeners in the cluster shape, as processes: `framewright serve`
 * (RENDER_EXECUTOR=kubernetes, METRICS_PORT) and `framewright operator` (OPERATOR_METRICS_PORT,
 * its Role's permissions only). One render goes through; the API counts its creation, the operator
 * the Job, the reconciles and the render's outcome (the operator completes it), and Prometheus sums
 * the two jobs' series.
 */

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const NS = 'framewright';
const databaseUrl = process.env.TEST_DATABASE_URL;
const s3Endpoint = process.env.TEST_S3_ENDPOINT;

describe('operator and API metrics in the cluster shape', { timeout: 600_000 }, () => {
  let cp: ControlPlane;
  let node: NodeHarness;
  let db: Database;
  let admin: postgres.Sql;
  let dbName: string;
  let api: ServeProcess;
  let operator: ServeProcess;
  let apiBase: string;
  let apiMetrics: string;
  let operatorBase: string;

  before(async () => {
    assert.ok(databaseUrl, 'TEST_DATABASE_URL is set by scripts/test.sh');
    assert.ok(s3Endpoint, 'TEST_S3_ENDPOINT is set by scripts/test.sh');
    dbName = `fw_metrics_${randomBytes(4).toString('hex')}`;
    admin = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${dbName}`);
    const clusterDbUrl = databaseUrl.replace(/\/[^/]*$/, `/${dbName}`);
    db = await openDatabase({ databaseUrl: clusterDbUrl, dataDir: '.', logger, max: 2 });

    const s3Env = (await testBucket(s3Endpoint as string, 'fw-metrics')).env;

    cp = await startControlPlane({ namespace: NS });
    await cp.kubectl(['apply', '-f', path.join(REPO, 'crds/renders.framewright.dev.yaml')]);
    await cp.kubectl(['wait', '--for=condition=Established', '--timeout=60s', 'crd/renders.framewright.dev']);
    const items = (['api', 'operator', 'worker'] as const).flatMap((id) => identityObjects(id, NS));
    await cp.kubectl(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
    node = await NodeHarness.start(cp, { namespace: NS, env: { ...s3Env, LOG_LEVEL: 'info' } });

    const [port, metricsPort, operatorPort] = [await freePort(), await freePort(), await freePort()];
    apiBase = `http://127.0.0.1:${port}`;
    apiMetrics = `http://127.0.0.1:${metricsPort}`;
    operatorBase = `http://127.0.0.1:${operatorPort}`;
    api = spawnFramewright(['serve'], {
      ...s3Env,
      DATABASE_URL: clusterDbUrl,
      DATA_DIR: path.join(cp.dir, 'api-data'),
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: apiBase,
      RENDER_EXECUTOR: 'kubernetes',
      KUBE_NAMESPACE: NS,
      KUBECONFIG: await cp.serviceAccountKubeconfig(NS, 'framewright-api'),
      LOG_LEVEL: 'warn',
    });
    operator = spawnFramewright(['operator'], {
      DATABASE_URL: clusterDbUrl,
      KUBECONFIG: await cp.serviceAccountKubeconfig(NS, 'framewright-operator'),
      KUBE_NAMESPACE: NS,
      PUBLIC_BASE_URL: apiBase,
      WORKER_IMAGE: 'framewright:test',
      POD_NAME: 'operator-metrics',
      OPERATOR_METRICS_PORT: String(operatorPort),
      LOG_LEVEL: 'warn',
    });
    await untilReady(api, apiBase, 60_000);
    // The operator's /readyz: the database answers and both informers have synced.
    await untilReady(operator, operatorBase, 60_000);
  });

  after(async () => {
    if (operator) await stopServe(operator).catch(() => {});
    if (api) await stopServe(api).catch(() => {});
    await node?.stop();
    await db?.close();
    await cp?.stop();
    if (admin) {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
      await admin.end();
    }
  });

  const logs = () => `--- operator ---\n${operator.log().slice(-3000)}\n--- api ---\n${api.log().slice(-2000)}`;

  it('serves /healthz, /readyz and /metrics on the operator port; the API serves metrics only on METRICS_PORT', async () => {
    assert.equal((await fetch(`${operatorBase}/healthz`)).status, 200);
    assert.equal((await fetch(`${operatorBase}/readyz`)).status, 200);
    assert.equal((await fetch(`${operatorBase}/nothing`)).status, 404);
    assert.equal((await fetch(`${apiBase}/metrics`)).status, 404, 'never on the public port');
    const m = await scrape(`${operatorBase}/metrics`);
    assert.equal(m.value('leader_election_master_status', { name: 'framewright-operator' }), 1, 'it leads alone');
    assert.equal(m.value('controller_runtime_reconcile_errors_total', { controller: 'render' }), 0);
    assert.equal(m.types.get('controller_runtime_reconcile_time_seconds'), 'HISTOGRAM');
    assert.equal(m.find('workqueue_depth', { name: 'render' }).length, 1);
    assert.equal(m.find('framewright_build_info').length, 1);
    const a = await scrape(`${apiMetrics}/metrics`);
    assert.equal(a.value('framewright_renders', { state: 'queued' }), 0);
  });

  it('one render: the API counts its creation, the operator its Job, reconciles and outcome', async () => {
    const { key } = await newAccount(db, { plan: 'pro', credits: 1000 });
    const res = await fetch(`${apiBase}/v1/renders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ movie: tinyMovie({ duration: 1 }) }),
    });
    assert.equal(res.status, 201, await res.clone().text());
    const id = ((await res.json()) as { id: string }).id;
    const row = await until(
      `render ${id} to finish`,
      async () => {
        const [r] = await db.sql<{ status: string; chargedCredits: number }[]>`
          SELECT status, charged_credits FROM renders WHERE id = ${id}`;
        return r && (r.status === 'done' || r.status === 'failed') ? r : undefined;
      },
      240_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${logs()}`);
    });
    assert.equal(row.status, 'done', logs());

    const op: Exposition = await scrape(`${operatorBase}/metrics`);
    assert.equal(op.value('framewright_operator_jobs_created_total'), 1);
    assert.equal(op.value('framewright_operator_render_to_job_seconds_count'), 1);
    assert.ok(op.value('controller_runtime_reconcile_total', { controller: 'render', result: 'success' }) >= 2);
    assert.equal(op.value('controller_runtime_reconcile_total', { controller: 'render', result: 'error' }), 0);
    assert.ok(op.value('controller_runtime_reconcile_time_seconds_count', { controller: 'render' }) >= 2);
    assert.ok(op.value('workqueue_adds_total', { name: 'render' }) >= 1);
    assert.ok(op.value('workqueue_queue_duration_seconds_count', { name: 'render' }) >= 2);
    assert.ok(op.value('workqueue_work_duration_seconds_count', { name: 'render' }) >= 2);
    assert.equal(op.find('workqueue_retries_total', { name: 'render' }).length, 1);
    // The operator completed it: its lifecycle series moved, once.
    assert.equal(op.value('framewright_renders_completed_total'), 1);
    assert.equal(op.value('framewright_credits_charged_total', { reason: 'render' }), row.chargedCredits);
    assert.equal(op.value('framewright_render_queue_wait_seconds_count'), 1);
    assert.equal(op.value('framewright_render_duration_seconds_count', { outcome: 'done' }), 1);

    const a = await scrape(`${apiMetrics}/metrics`);
    assert.equal(a.value('framewright_renders_created_total'), 1);
    assert.equal(a.value('framewright_renders_completed_total'), 0, 'counted by the operator, not twice');
    assert.equal(a.value('framewright_renders', { state: 'done' }), 1);
    assert.equal(
      a.value('framewright_http_request_duration_seconds_count', {
        route: '/v1/renders',
        method: 'POST',
        status_code: '201',
      }),
      1,
    );
  });
});
