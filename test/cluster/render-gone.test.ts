// Issue 28: a render whose Render resource went away while no operator ran (`helm uninstall`
// took the operator, then the Renders were removed; or `kubectl delete render` during an operator
// outage) used to stay `rendering` in PostgreSQL with its credits reserved for ever. The API's
// resync (every API replica, every 10 s) now fails it as RENDER_CANCELLED and releases them.
// On a real control plane (etcd, kube-apiserver v1.33) with the API's own Role.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { KubernetesExecutor, RENDER_GONE_MESSAGE } from '../../api/execution/kubernetes-executor.ts';
import { loadKubeConfig, RendersClient } from '../../lib/kube/client.ts';
import { CRD_FILE, CRD_NAME } from '../../lib/kube/crd.ts';
import { movieObject, renderResource } from '../../lib/kube/render-resource.ts';
import { S3ObjectStore } from '../../lib/storage/s3-store.ts';
import { identityObjects } from '../../operator/rbac.ts';
import { type Database, openDatabase } from '../../store/database.ts';
import { activeUsage, getRenderById } from '../../store/renders-repo.ts';
import { logger, newAccount } from '../api/helpers.ts';
import { tinyMovie } from '../pipeline/harness.ts';
import { insertQueuedRender, testBucket } from '../services/cluster-fixture.ts';
import { type ControlPlane, startControlPlane } from '../services/control-plane.ts';

const NS = 'framewright';
const CRD_PATH = fileURLToPath(new URL(`../../${CRD_FILE}`, import.meta.url));
const databaseUrl = process.env.TEST_DATABASE_URL;
const s3Endpoint = process.env.TEST_S3_ENDPOINT;

let cp: ControlPlane;
let db: Database;
let admin: postgres.Sql;
let dbName: string;
let executor: KubernetesExecutor;

before(
  async () => {
    assert.ok(databaseUrl, 'TEST_DATABASE_URL is set by scripts/test.sh');
    assert.ok(s3Endpoint, 'TEST_S3_ENDPOINT is set by scripts/test.sh');
    dbName = `fw_gone_${randomBytes(4).toString('hex')}`;
    admin = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${dbName}`);
    db = await openDatabase({
      databaseUrl: databaseUrl.replace(/\/[^/]*$/, `/${dbName}`),
      dataDir: '.',
      logger,
      max: 2,
    });
    const s3 = await testBucket(s3Endpoint, 'fw-gone');
    cp = await startControlPlane({ namespace: NS });
    await cp.kubectl(['apply', '-f', CRD_PATH]);
    await cp.kubectl(['wait', '--for=condition=Established', `crd/${CRD_NAME}`, '--timeout=60s']);
    const items = identityObjects('api', NS);
    await cp.apply(...items);
    const kc = loadKubeConfig({ KUBECONFIG: await cp.serviceAccountKubeconfig(NS, 'framewright-api') });
    executor = new KubernetesExecutor({
      db,
      objects: new S3ObjectStore({ ...s3.options, bucket: s3.bucket }),
      renders: new RendersClient(kc, NS),
      namespace: NS,
      publicBaseUrl: 'http://framewright.test',
      logger,
    });
  },
  { timeout: 240_000 },
);

after(async () => {
  await executor?.close();
  await db?.close();
  await cp?.stop();
  if (admin) {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
    await admin.end();
  }
});

test('a started render whose Render is gone is failed as cancelled and its credits released; one with its Render is left', async () => {
  const { accountId, keyId } = await newAccount(db, { plan: 'pro', credits: 100 });
  const started = async (minutesAgo: number) => {
    const row = await insertQueuedRender(db.sql, { accountId, keyId, movie: tinyMovie() });
    // As the operator leaves it: started, then nothing heard (the operator and the pods gone).
    await db.sql`UPDATE renders SET status = 'rendering', progress = 46,
      updated_at = now() - make_interval(mins => ${minutesAgo}) WHERE id = ${row.id}`;
    return row;
  };
  const gone = await started(5);
  const kept = await started(5);
  const recent = await started(0);
  await new RendersClient(loadKubeConfig({ KUBECONFIG: cp.adminKubeconfig }), NS).create(
    renderResource({ render: kept, movie: movieObject(kept.id, kept.movie), namespace: NS }),
  );
  assert.equal((await activeUsage(db.sql, accountId)).reserved, 3);

  await executor.resync();

  const failed = await getRenderById(db.sql, gone.id);
  assert.equal(failed?.status, 'failed');
  assert.deepEqual(failed?.error, {
    code: 'RENDER_CANCELLED',
    message: RENDER_GONE_MESSAGE,
    docsUrl: 'http://framewright.test/docs/errors/RENDER_CANCELLED',
  });
  assert.equal(failed?.reservedCredits, 0);
  assert.equal(failed?.chargedCredits, 0);
  assert.equal((await getRenderById(db.sql, kept.id))?.status, 'rendering', 'its Render exists: the operator owns it');
  assert.equal((await getRenderById(db.sql, recent.id))?.status, 'rendering', 'changed within the grace period');
  assert.equal((await activeUsage(db.sql, accountId)).reserved, 2, 'the cancelled render holds no credits');

  await executor.resync();
  const after = await getRenderById(db.sql, gone.id);
  assert.equal(after?.updatedAt.getTime(), failed?.updatedAt.getTime(), 'a second pass changes nothing');
});
