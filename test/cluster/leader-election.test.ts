// Leader election on a real coordination.k8s.io/v1 Lease (kube-apiserver v1.33), with short
// durations: lease 3 s, renew deadline 2 s, retry 0.5 s.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { kubeRequest } from '../../lib/kube/http.ts';
import { type LeaderElectionOptions, LeaderElector } from '../../operator/kube/leader-election.ts';
import { type ControlPlane, startControlPlane } from '../services/control-plane.ts';
import { kubeConfigViaProxy, type TcpProxy } from '../services/tcp-proxy.ts';

const NS = 'leader-test';
const LEASE_MS = 3000;
const DEADLINE_MS = 2000;
const RETRY_MS = 500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let cp: ControlPlane;
let admin: KubeConfig;
const proxies: TcpProxy[] = [];
const electors: LeaderElector[] = [];

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
  await Promise.all(electors.map((e) => e.stop()));
  await Promise.all(proxies.map((p) => p.close()));
  await cp?.stop();
});

/** The admin's KubeConfig, talking to the apiserver through a proxy the test controls. */
async function viaProxy(): Promise<{ kc: KubeConfig; proxy: TcpProxy }> {
  const via = await kubeConfigViaProxy(admin, cp.server);
  proxies.push(via.proxy);
  return via;
}

/** Who started and stopped leading when, across every elector of one test. */
class Timeline {
  readonly entries: Array<{ who: string; what: 'start' | 'stop'; at: number }> = [];
  /** Terms whose AbortSignal fired, per elector. */
  readonly aborted = new Map<string, number>();

  elector(lease: string, who: string, kc: KubeConfig, extra: Partial<LeaderElectionOptions> = {}): LeaderElector {
    const e = new LeaderElector(kc, {
      namespace: NS,
      name: lease,
      identity: who,
      leaseDurationMs: LEASE_MS,
      renewDeadlineMs: DEADLINE_MS,
      retryPeriodMs: RETRY_MS,
      onStartedLeading: (signal) => {
        this.entries.push({ who, what: 'start', at: Date.now() });
        signal.addEventListener('abort', () => this.aborted.set(who, (this.aborted.get(who) ?? 0) + 1));
      },
      onStoppedLeading: () => this.entries.push({ who, what: 'stop', at: Date.now() }),
      ...extra,
    });
    electors.push(e);
    return e;
  }

  at(who: string, what: 'start' | 'stop', nth = 0): number | undefined {
    return this.entries.filter((e) => e.who === who && e.what === what)[nth]?.at;
  }

  /** Never two leaders at once, as the callbacks tell it. */
  assertNoOverlap(): void {
    let leader: string | undefined;
    for (const e of this.entries) {
      if (e.what === 'start') {
        assert.equal(
          leader,
          undefined,
          `${e.who} started leading while ${leader} led: ${JSON.stringify(this.entries)}`,
        );
        leader = e.who;
      } else if (leader === e.who) {
        leader = undefined;
      }
    }
  }
}

async function waitFor(what: string, timeoutMs: number, ok: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

interface Lease {
  spec?: { holderIdentity?: string; leaseDurationSeconds?: number; leaseTransitions?: number };
}
const readLease = (name: string) =>
  kubeRequest<Lease>(admin, { path: `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases/${name}`, timeoutMs: 5000 });

test('of two electors started together one leads; stopped without release, the other takes over at expiry', async (t) => {
  const tl = new Timeline();
  const a = tl.elector('crash', 'a', admin);
  const b = tl.elector('crash', 'b', admin);
  a.start();
  b.start();
  await waitFor('a leader', 5000, () => a.isLeader() || b.isLeader());
  // Several renewals (however slow a busy machine makes them): the leader stays, the other keeps out.
  await waitFor('two renewals', 15_000, () => a.stats.renewals + b.stats.renewals >= 2);
  assert.ok(a.isLeader() !== b.isLeader(), 'exactly one leader');
  const [leader, other] = a.isLeader() ? [a, b] : [b, a];
  assert.ok(leader.stats.renewals >= 2, `renewals: ${leader.stats.renewals}`);
  assert.equal(other.observedLeader, leader.identity);
  assert.equal((await readLease('crash')).spec?.holderIdentity, leader.identity);

  const stoppedAt = Date.now();
  await leader.stop(); // a crash, as far as the lease knows: it stays held until it expires
  await waitFor('the other to take over', LEASE_MS + 3000, () => other.isLeader());
  const tookOver = Date.now() - stoppedAt;
  t.diagnostic(`took over ${tookOver} ms after the leader stopped (lease ${LEASE_MS} ms)`);
  // The last renewal was a retry period and a request or two before the stop (generous for a busy
  // machine); a takeover before the lease expired would come within one retry period.
  assert.ok(tookOver >= LEASE_MS - RETRY_MS - 800, `took over after ${tookOver} ms: before the lease expired`);
  assert.ok(tookOver <= LEASE_MS + RETRY_MS * 1.2 + 500, `took over after ${tookOver} ms`);
  const lease = await readLease('crash');
  assert.equal(lease.spec?.holderIdentity, other.identity);
  assert.equal(lease.spec?.leaseTransitions, 1);
  tl.assertNoOverlap();
  await other.stop();
});

test('release() hands the lease over at once', async (t) => {
  const tl = new Timeline();
  const a = tl.elector('release', 'a', admin);
  a.start();
  await waitFor('a to lead', 5000, () => a.isLeader());
  const b = tl.elector('release', 'b', admin);
  b.start();
  await sleep(1000);
  assert.equal(b.isLeader(), false);

  const releasedAt = Date.now();
  await a.release();
  assert.equal(a.isLeader(), false);
  assert.equal(a.stats.releases, 1);
  await waitFor('b to take over', LEASE_MS, () => b.isLeader());
  const tookOver = Date.now() - releasedAt;
  t.diagnostic(`took over ${tookOver} ms after the release`);
  assert.ok(tookOver <= RETRY_MS * 1.2 + 500, `took over ${tookOver} ms after the release, not at once`);
  tl.assertNoOverlap();
  await b.release();
  const lease = await readLease('release');
  assert.equal(lease.spec?.holderIdentity ?? '', '');
  assert.equal(lease.spec?.leaseDurationSeconds, 1);
});

test('a leader that cannot renew (its connection frozen) steps down after the renew deadline, before anyone takes over', async (t) => {
  const tl = new Timeline();
  const { kc, proxy } = await viaProxy();
  const a = tl.elector('frozen', 'a', kc);
  a.start();
  await waitFor('a to lead', 5000, () => a.isLeader());
  const b = tl.elector('frozen', 'b', admin);
  b.start();
  await sleep(1200);

  proxy.freeze();
  const frozenAt = Date.now();
  await waitFor('a to step down', DEADLINE_MS + 2000, () => !a.isLeader());
  const steppedDown = Date.now() - frozenAt;
  t.diagnostic(`stepped down ${steppedDown} ms after the freeze (renew deadline ${DEADLINE_MS} ms)`);
  // The deadline runs from the last renewal, which came up to a retry period before the freeze.
  assert.ok(steppedDown <= DEADLINE_MS + 500, `stepped down ${steppedDown} ms after the freeze`);
  assert.ok(steppedDown >= DEADLINE_MS - RETRY_MS - 500, `stepped down after ${steppedDown} ms: too early`);
  assert.equal(tl.aborted.get('a'), 1, "the term's signal aborted");

  await waitFor('b to take over', LEASE_MS + 3000, () => b.isLeader());
  tl.assertNoOverlap();
  const gap = (tl.at('b', 'start') ?? 0) - (tl.at('a', 'stop') ?? 0);
  t.diagnostic(`b started leading ${gap} ms after a stopped`);
  // a stops at its last renewal + 2 s, b starts at that renewal + 3 s at the earliest.
  assert.ok(gap >= LEASE_MS - DEADLINE_MS - 400, `b started only ${gap} ms after a stopped`);

  proxy.cut(); // what the frozen connections held is dropped: a retries on new ones
  proxy.thaw();
  await waitFor('a to see b lead', 5000, () => a.observedLeader === 'b');
  await sleep(1000);
  assert.equal(a.isLeader(), false, 'a does not take the lease back while b renews it');
  assert.ok(a.stats.failures >= 1, `a's failed attempts: ${a.stats.failures}`);
  await Promise.all([a.stop(), b.stop()]);
});

test('options are checked: the renew deadline must fall inside the lease', () => {
  assert.throws(
    () => new LeaderElector(admin, { namespace: NS, name: 'x', leaseDurationMs: 3000, renewDeadlineMs: 3000 }),
    /renewDeadlineMs must be less than leaseDurationMs/,
  );
  assert.throws(() => new LeaderElector(admin, { namespace: NS, name: 'x', leaseDurationMs: 2500 }), /whole seconds/);
});
