import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Render } from '../../lib/kube/render-resource.ts';
import { Operator } from '../../operator/operator.ts';
import type { ReconcilerDeps } from '../../operator/reconciler.ts';
import { operatorSettings } from '../../operator/settings.ts';
import { backends, logger } from '../api/helpers.ts';
import { parseExposition } from './exposition.ts';

/**
 * framewright_operator_render_to_job_seconds is a Render's wait for its first Job (single or
 * prepare). A segmented render creates three Jobs; the segments and join Jobs follow the previous
 * stage's work, so they count as Jobs created but not as a render's wait. Driven through the
 * operator's own wiring of the reconciler's onJobCreated hook (the cluster tests run it end to end).
 */
test('a segmented render counts three Jobs created and one render-to-Job wait', async (t) => {
  const backend = backends()[0];
  assert.ok(backend);
  const db = await backend.open();
  t.after(() => db.close());
  const now = new Date('2026-11-23T12:00:10Z');
  const operator = new Operator({
    kc: { getCurrentCluster: () => ({ server: 'https://127.0.0.1:1' }), applyToHTTPSOptions: async () => {} },
    db,
    settings: operatorSettings({ KUBE_NAMESPACE: 'framewright' }),
    publicBaseUrl: 'http://api.test',
    logger,
    now: () => now,
  });
  const deps = (operator as unknown as { reconciler: { deps: ReconcilerDeps } }).reconciler.deps;
  assert.ok(deps.onJobCreated, 'the operator listens for created Jobs');
  const render = { metadata: { name: 'rnd-x', creationTimestamp: '2026-11-23T12:00:00Z' } } as Render;
  deps.onJobCreated(render, 'prepare');
  deps.onJobCreated(render, 'segments');
  deps.onJobCreated(render, 'join');
  const single = { metadata: { name: 'rnd-y', creationTimestamp: '2026-11-23T12:00:08Z' } } as Render;
  deps.onJobCreated(single, 'single');

  const m = parseExposition(await operator.registry.metrics());
  assert.equal(m.value('framewright_operator_jobs_created_total'), 4);
  assert.equal(m.value('framewright_operator_render_to_job_seconds_count'), 2, 'one wait per render');
  assert.equal(m.value('framewright_operator_render_to_job_seconds_sum'), 10 + 2);
});
