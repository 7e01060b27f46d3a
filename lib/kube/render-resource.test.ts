import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import { newId } from '../ids.ts';
import {
  API_VERSION,
  DEFAULT_MAX_ATTEMPTS,
  KIND,
  LABELS,
  movieObject,
  type RenderResourceRow,
  RenderSpec,
  RenderStatus,
  renderIdFromName,
  renderLabels,
  renderResource,
  renderResourceName,
} from './render-resource.ts';

function row(overrides: Partial<RenderResourceRow> = {}): RenderResourceRow {
  return {
    id: newId('rnd'),
    accountId: newId('acc'),
    mode: 'live',
    templateId: null,
    draft: false,
    watermark: false,
    outputFormat: 'mp4',
    width: 1920,
    height: 1080,
    fps: 30,
    estimatedSec: 12.5,
    ...overrides,
  };
}

test('the resource name is the render id in DNS-1123 form, and back', () => {
  const id = newId('rnd');
  const name = renderResourceName(id);
  assert.equal(name, id.replace('_', '-'));
  assert.match(name, /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
  assert.ok(name.length <= 63);
  assert.equal(renderIdFromName(name), id);
});

test('names that no render id stands for', () => {
  for (const name of ['rnd-', 'rnd-short', 'tpl-0000000000000000000000000a', 'my-render', `rnd-${'u'.repeat(26)}`]) {
    assert.equal(renderIdFromName(name), null, name);
  }
  for (const id of ['rnd_abc', 'tpl_00000000000000000000000000', 'RND_00000000000000000000000000']) {
    assert.throws(() => renderResourceName(id), /Not a render id/, id);
  }
});

test('labels: account, render id, managed-by, and the template only when there is one', () => {
  const r = row();
  assert.deepEqual(renderLabels({ renderId: r.id, accountId: r.accountId, templateId: null }), {
    [LABELS.renderId]: r.id,
    [LABELS.account]: r.accountId,
    [LABELS.managedBy]: 'framewright',
  });
  const tpl = newId('tpl');
  assert.equal(renderLabels({ renderId: r.id, accountId: r.accountId, templateId: tpl })[LABELS.template], tpl);
  // Ids are valid label values: at most 63 characters of [A-Za-z0-9_.-].
  for (const value of Object.values(renderLabels({ renderId: r.id, accountId: r.accountId, templateId: tpl }))) {
    assert.match(value, /^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/);
  }
});

test('movieObject: the key, size and digest the spec carries', () => {
  const id = newId('rnd');
  const movie = { version: 1, scenes: [{ text: 'héllo' }] };
  const m = movieObject(id, movie);
  assert.equal(m.key, `movies/${id}.json`);
  assert.equal(m.bytes, Buffer.byteLength(JSON.stringify(movie)));
  assert.equal(m.sha256, createHash('sha256').update(JSON.stringify(movie)).digest('hex'));
  assert.deepEqual(JSON.parse(m.body.toString('utf8')), movie);
});

test('renderResource builds a valid Render from a render row (table)', () => {
  const tpl = newId('tpl');
  const cases: { name: string; row: RenderResourceRow; maxAttempts?: number }[] = [
    { name: 'live, full size', row: row() },
    {
      name: 'test mode draft from a template',
      row: row({ mode: 'test', draft: true, watermark: true, templateId: tpl, width: 960, height: 540 }),
    },
    { name: 'three attempts', row: row(), maxAttempts: 3 },
  ];
  for (const c of cases) {
    const movie = movieObject(c.row.id, { scenes: [] });
    const r = renderResource({
      render: c.row,
      movie,
      namespace: 'framewright',
      ...(c.maxAttempts ? { maxAttempts: c.maxAttempts } : {}),
    });
    assert.equal(r.apiVersion, API_VERSION, c.name);
    assert.equal(r.kind, KIND);
    assert.equal(r.metadata.name, renderResourceName(c.row.id));
    assert.equal(r.metadata.namespace, 'framewright');
    assert.equal(r.metadata.labels?.[LABELS.template], c.row.templateId ?? undefined);
    assert.ok(Value.Check(RenderSpec, r.spec), `${c.name}: ${JSON.stringify([...Value.Errors(RenderSpec, r.spec)])}`);
    assert.deepEqual(r.spec, {
      renderId: c.row.id,
      accountId: c.row.accountId,
      mode: c.row.mode,
      ...(c.row.templateId ? { templateId: c.row.templateId } : {}),
      movieKey: movie.key,
      movieBytes: movie.bytes,
      movieSha256: movie.sha256,
      outputFormat: c.row.outputFormat,
      outputKey: `renders/${c.row.id}.mp4`,
      width: c.row.width,
      height: c.row.height,
      fps: c.row.fps,
      draft: c.row.draft,
      watermark: c.row.watermark,
      estimatedDurationSec: c.row.estimatedSec,
      maxAttempts: c.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    });
    assert.equal(r.status, undefined);
  }
});

test('the status schema takes what the worker and the operator write', () => {
  const status: RenderStatus = {
    phase: 'failed',
    progress: 40,
    attempts: 2,
    jobName: 'rnd-x',
    error: { code: 'ASSET_FETCH_FAILED', message: 'The image could not be fetched', path: '/scenes/0/src' },
    startTime: '2025-01-01T00:00:00Z',
    completionTime: '2025-01-01T00:01:00Z',
    observedGeneration: 1,
    conditions: [
      {
        type: 'Failed',
        status: 'True',
        observedGeneration: 1,
        lastTransitionTime: '2025-01-01T00:01:00Z',
        reason: 'AssetFetchFailed',
        message: '',
      },
    ],
  };
  assert.ok(Value.Check(RenderStatus, status));
  assert.ok(!Value.Check(RenderStatus, { progress: 101 }));
  assert.ok(!Value.Check(RenderStatus, { phase: 'paused' }));
});
