import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ApiException } from '@kubernetes/client-node';
import {
  isAlreadyExists,
  isConflict,
  isGone,
  isInvalid,
  isNotFound,
  KubeError,
  kubeStatus,
  loadKubeConfig,
} from './client.ts';

const KUBECONFIG = `apiVersion: v1
kind: Config
clusters: [{ name: c, cluster: { server: 'https://127.0.0.1:6443', insecure-skip-tls-verify: true } }]
users: [{ name: u, user: { token: abc } }]
contexts: [{ name: x, context: { cluster: c, user: u, namespace: framewright } }]
current-context: x
`;

test('loadKubeConfig: KUBECONFIG, then the service account, else an error naming the variable', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'fw-kubeconfig-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'config');
  await writeFile(file, KUBECONFIG);
  const fromFile = loadKubeConfig({ KUBECONFIG: file }, dir);
  assert.equal(fromFile.getCurrentCluster()?.server, 'https://127.0.0.1:6443');
  const fileOpts: { rejectUnauthorized?: boolean; headers?: Record<string, string> } = {};
  await fromFile.applyToHTTPSOptions(fileOpts);
  assert.deepEqual(fileOpts, { rejectUnauthorized: false, headers: { authorization: 'Bearer abc' } });
  await writeFile(path.join(dir, 'exec'), KUBECONFIG.replace('{ token: abc }', '{ exec: { command: gcloud } }'));
  assert.throws(() => loadKubeConfig({ KUBECONFIG: path.join(dir, 'exec') }, dir), /exec or auth-provider plugin/);
  assert.throws(() => loadKubeConfig({ KUBECONFIG: path.join(dir, 'missing') }, dir), /KUBECONFIG=.*: no such file/);

  assert.throws(() => loadKubeConfig({}, dir), /set KUBECONFIG .*KUBERNETES_SERVICE_HOST is not set/);
  assert.throws(() => loadKubeConfig({ KUBERNETES_SERVICE_HOST: '10.0.0.1' }, dir), /token is missing/);
  await writeFile(path.join(dir, 'token'), 'sa-token\n');
  await writeFile(path.join(dir, 'ca.crt'), 'ca-cert');
  const inCluster = loadKubeConfig({ KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' }, dir);
  assert.equal(inCluster.getCurrentCluster()?.server, 'https://[fd00::1]:443');
  // The request carries the mounted CA and the token (read from its file, which the kubelet rotates).
  const opts: import('node:https').RequestOptions = {};
  await inCluster.applyToHTTPSOptions(opts);
  assert.equal(String(opts.ca), 'ca-cert');
  assert.equal((opts.headers as Record<string, string>).authorization, 'Bearer sa-token');
});

test('error helpers read the Status that client-node (2.0.1, as 1.4.0) keeps as text', () => {
  const status = (code: number, reason: string) =>
    new ApiException(
      code,
      'Unknown API Status Code!',
      JSON.stringify({ kind: 'Status', code, reason, message: 'm' }),
      {},
    );
  assert.ok(isNotFound(status(404, 'NotFound')));
  assert.ok(isAlreadyExists(status(409, 'AlreadyExists')));
  assert.ok(!isConflict(status(409, 'AlreadyExists')));
  assert.ok(isConflict(status(409, 'Conflict')));
  assert.ok(isGone(status(410, 'Expired')));
  assert.ok(isInvalid(status(422, 'Invalid')));
  assert.ok(!isNotFound(new Error('404')));
  assert.deepEqual(kubeStatus(new ApiException(401, 'Unauthorized', undefined, {})), {
    code: 401,
    reason: undefined,
    message: 'HTTP 401',
  });
  const wrapped = new KubeError('get Render rnd-x', { code: 404, reason: 'NotFound', message: 'not found' });
  assert.ok(isNotFound(wrapped));
  assert.equal(wrapped.message, 'get Render rnd-x: 404 NotFound: not found');
});
