// The operator's informer against a real kube-apiserver (v1.33): sync, events, watches the server
// ends, 410 Gone, apiserver restarts and silent connections (a TCP proxy that stops forwarding).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { kubeRequest } from '../../lib/kube/http.ts';
import { Informer, type InformerOptions, type KubeObject } from '../../operator/kube/informer.ts';
import { type ControlPlane, startControlPlane } from '../services/control-plane.ts';
import { kubeConfigViaProxy, type TcpProxy } from '../services/tcp-proxy.ts';

const NS = 'informer-test';
const CM_PATH = `/api/v1/namespaces/${NS}/configmaps`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface ConfigMap extends KubeObject {
  metadata?: KubeObject['metadata'] & { labels?: Record<string, string> };
  data?: Record<string, string>;
}

let cp: ControlPlane;
let admin: KubeConfig;
const proxies: TcpProxy[] = [];
const informers: Informer<ConfigMap>[] = [];

before(
  async () => {
    const t0 = Date.now();
    cp = await startControlPlane({ namespace: NS });
    console.log(`control plane ready in ${Date.now() - t0} ms`);
    admin = new KubeConfig();
    admin.loadFromFile(cp.adminKubeconfig);
  },
  { timeout: 180_000 },
);

after(async () => {
  await Promise.all(informers.map((i) => i.stop()));
  await Promise.all(proxies.map((p) => p.close()));
  await cp?.stop();
});

/** The admin's KubeConfig, talking to the apiserver through a proxy the test controls. */
async function viaProxy(): Promise<{ kc: KubeConfig; proxy: TcpProxy }> {
  const via = await kubeConfigViaProxy(admin, cp.server);
  proxies.push(via.proxy);
  return via;
}

// Each test has its own label (its case) and its objects are named `case-name`; the test sees
// only `name`.
function cm(name: string, label: string, value: string): ConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `${label}-${name}`, labels: { case: label } },
    data: { v: value },
  };
}

const short = (o: ConfigMap) => (o.metadata?.name ?? '').replace(/^[^-]+-/, '');

const create = (name: string, label: string, value: string) =>
  kubeRequest<ConfigMap>(admin, { method: 'POST', path: CM_PATH, body: cm(name, label, value), timeoutMs: 10_000 });
const update = (name: string, label: string, value: string) =>
  kubeRequest<ConfigMap>(admin, {
    method: 'PUT',
    path: `${CM_PATH}/${label}-${name}`,
    body: cm(name, label, value),
    timeoutMs: 10_000,
  });
const remove = (name: string, label: string) =>
  kubeRequest(admin, { method: 'DELETE', path: `${CM_PATH}/${label}-${name}`, timeoutMs: 10_000 });
/** The cached object `name` of case `label`. */
const cached = (inf: Informer<ConfigMap>, label: string, name: string) => inf.get(`${NS}/${label}-${name}`);

/** What the server holds for a label, as name -> data.v. */
async function serverState(label: string): Promise<Record<string, string | undefined>> {
  const list = await kubeRequest<{ items: ConfigMap[] }>(admin, {
    path: CM_PATH,
    query: { labelSelector: `case=${label}` },
    timeoutMs: 10_000,
  });
  return Object.fromEntries(list.items.map((o) => [short(o), o.data?.v]));
}

function cacheState(inf: Informer<ConfigMap>): Record<string, string | undefined> {
  return Object.fromEntries(inf.list().map((o) => [short(o), o.data?.v]));
}

/** An informer on the ConfigMaps labelled `case=label`, recording every callback. */
function informerFor(label: string, kc: KubeConfig, options: Partial<InformerOptions<ConfigMap>> = {}) {
  const inf = new Informer<ConfigMap>(kc, {
    path: CM_PATH,
    labelSelector: `case=${label}`,
    backoff: { baseMs: 100, factor: 2, capMs: 1000 },
    ...options,
  });
  const events: string[] = [];
  inf.addHandlers({
    onAdd: (o) => events.push(`add ${short(o)}=${o.data?.v}`),
    onUpdate: (_old, o) => events.push(`update ${short(o)}=${o.data?.v}`),
    onDelete: (o) => events.push(`delete ${short(o)}`),
  });
  informers.push(inf);
  inf.start();
  return { inf, events };
}

async function waitFor(what: string, timeoutMs: number, ok: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}

/** Waits until the informer's cache equals what the server holds for `label`. */
async function converged(inf: Informer<ConfigMap>, label: string, timeoutMs = 15_000): Promise<void> {
  let want: Record<string, string | undefined> = {};
  await waitFor(`the cache to match the server for ${label}`, timeoutMs, async () => {
    want = await serverState(label);
    return JSON.stringify(sortKeys(cacheState(inf))) === JSON.stringify(sortKeys(want));
  }).catch((err) => {
    assert.deepEqual(cacheState(inf), want, String(err));
  });
}

function sortKeys(o: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
}

test('syncs, then sees adds, updates and deletes', async () => {
  await create('a', 'basic', '1');
  await create('b', 'basic', '1');
  await create('other', 'not-this-case', '1');
  const { inf, events } = informerFor('basic', admin);
  await inf.synced;
  assert.ok(inf.hasSynced());
  assert.deepEqual(sortKeys(cacheState(inf)), { a: '1', b: '1' });
  assert.deepEqual([...events].sort(), ['add a=1', 'add b=1']);
  assert.equal(cached(inf, 'basic', 'a')?.data?.v, '1');

  await create('c', 'basic', '1');
  await update('a', 'basic', '2');
  await remove('b', 'basic');
  await waitFor('three events', 10_000, () => events.length === 5);
  assert.deepEqual(events.slice(2), ['add c=1', 'update a=2', 'delete b']);
  assert.deepEqual(sortKeys(cacheState(inf)), { a: '2', c: '1' });
  assert.equal(inf.stats.lists, 1);
});

test('a watch the server ends resumes from the last resourceVersion: no relist, no missed event', async () => {
  await create('w', 'resume', '0');
  const { inf, events } = informerFor('resume', admin, { watchTimeoutSeconds: 1 });
  await inf.synced;
  const n = 16;
  for (let i = 1; i <= n; i++) {
    await update('w', 'resume', String(i));
    await sleep(250); // about 4 s in all: the 1 s watches end several times meanwhile
  }
  await waitFor('the last update', 10_000, () => cached(inf, 'resume', 'w')?.data?.v === String(n));
  const updates = events.filter((e) => e.startsWith('update'));
  assert.deepEqual(
    updates,
    Array.from({ length: n }, (_, i) => `update w=${i + 1}`),
    'every update seen once, in order',
  );
  assert.ok(inf.stats.watchEnds >= 2, `watches ended by the server: ${inf.stats.watchEnds}`);
  assert.equal(inf.stats.lists, 1, 'no relist');
  assert.equal(inf.stats.restarts, 0);
});

test('410 Gone (the informer fell behind an apiserver restart) relists; the gap is reconciled', async (t) => {
  // What yields 410 on 1.33: a watch from a resourceVersion older than the watch cache's window.
  // A restarted apiserver fills its cache from a fresh list, so every resourceVersion from before
  // the restart (with writes since) is too old. Compacting etcd alone does not: the watch cache
  // still serves the events (only an exact list at the old version gets 410).
  await create('a', 'gone', '1');
  await create('b', 'gone', '1');
  const { kc, proxy } = await viaProxy();
  const { inf, events } = informerFor('gone', kc);
  await inf.synced;
  const staleRv = inf.resourceVersion;

  proxy.freeze(); // the informer hears nothing from here on, and notices nothing
  await remove('a', 'gone');
  await update('b', 'gone', '2');
  const t0 = Date.now();
  await cp.restartApiserver();
  t.diagnostic(`apiserver restarted in ${Date.now() - t0} ms`);
  await create('c', 'gone', '1');
  proxy.cut(); // drop the old connection and what it held: the informer re-watches from staleRv
  proxy.thaw();

  await converged(inf, 'gone');
  assert.ok(inf.stats.gone >= 1, `410s seen: ${inf.stats.gone}`);
  assert.ok(inf.stats.relists >= 1, `relists: ${inf.stats.relists}`);
  assert.notEqual(inf.resourceVersion, staleRv);
  assert.deepEqual(events.slice(2).sort(), ['add c=1', 'delete a', 'update b=2']);
  assert.deepEqual(sortKeys(cacheState(inf)), { b: '2', c: '1' });
});

test('an apiserver restart and an outage: the informer backs off, comes back and catches up', async () => {
  await create('x', 'restart', '1');
  await create('y', 'restart', '1');
  const direct = informerFor('restart', admin);
  const { kc, proxy } = await viaProxy();
  const outage = informerFor('restart', kc);
  await Promise.all([direct.inf.synced, outage.inf.synced]);

  // The proxied informer loses the apiserver for longer than the restart takes.
  proxy.refuse = true;
  proxy.cut();
  await cp.restartApiserver();
  await remove('x', 'restart');
  await update('y', 'restart', '2');
  await create('z', 'restart', '1');
  await waitFor('the proxied informer to retry a few times', 10_000, () => outage.inf.stats.restarts >= 3);
  proxy.refuse = false;

  await converged(direct.inf, 'restart');
  await converged(outage.inf, 'restart');
  for (const { inf } of [direct, outage]) {
    assert.deepEqual(sortKeys(cacheState(inf)), { y: '2', z: '1' });
    assert.ok(inf.stats.watches >= 2);
  }
  assert.ok(direct.inf.stats.restarts + direct.inf.stats.watchEnds >= 1, JSON.stringify(direct.inf.stats));
  assert.ok(outage.events.includes('delete x'));
});

test('a silent watch (connection frozen, no FIN) is torn down by the watchdog and restarted', async (t) => {
  await create('hb', 'silent', '0');
  await create('d', 'silent', '1');
  const { kc, proxy } = await viaProxy();
  const { inf } = informerFor('silent', kc, { silenceMs: 1500, watchTimeoutSeconds: 300 });
  await inf.synced;
  // A heartbeat every 300 ms: a healthy watch is never silent for 1.5 s.
  let beating = true;
  const heartbeat = (async () => {
    for (let i = 1; beating; i++) {
      await update('hb', 'silent', String(i)).catch(() => {});
      await sleep(300);
    }
  })();
  try {
    await sleep(2500);
    assert.equal(inf.stats.watchdogFires, 0, 'a healthy watch does not trip the watchdog');
    proxy.freeze();
    const frozenAt = Date.now();
    await update('d', 'silent', '2');
    await waitFor('the watchdog', 10_000, () => inf.stats.watchdogFires >= 1);
    // Silence began with the last heartbeat before the freeze (300 ms and a request earlier).
    const firedAfter = Date.now() - frozenAt;
    t.diagnostic(`watchdog fired ${firedAfter} ms after the freeze (silenceMs 1500)`);
    assert.ok(firedAfter >= 800 && firedAfter < 4000, `watchdog fired after ${firedAfter} ms`);
    assert.notEqual(cached(inf, 'silent', 'd')?.data?.v, '2', 'nothing got through the frozen proxy');
    proxy.thaw();
    await waitFor('the change made while frozen', 10_000, () => cached(inf, 'silent', 'd')?.data?.v === '2');
  } finally {
    beating = false;
    await heartbeat;
  }
  await converged(inf, 'silent');
  assert.equal(inf.stats.lists, 1, 'resumed from the last resourceVersion, no relist');
});

test('stop() ends the loop; synced rejects for an informer stopped before its first list', async () => {
  const { kc, proxy } = await viaProxy();
  proxy.refuse = true;
  const inf = new Informer<ConfigMap>(kc, { path: CM_PATH, backoff: { baseMs: 50, factor: 2, capMs: 200 } });
  inf.start();
  await sleep(300);
  await inf.stop();
  await assert.rejects(inf.synced, /stopped before it synced/);
  assert.ok(inf.stats.listErrors >= 1);
  const errors = inf.stats.listErrors;
  await sleep(300);
  assert.equal(inf.stats.listErrors, errors, 'no attempt after stop');
});
