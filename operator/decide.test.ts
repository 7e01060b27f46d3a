import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Job } from '@kubernetes/client-node';
import type { Render, RenderStatus } from '../lib/kube/render-resource.ts';
import { outOfMemory } from '../store/lifecycle/decisions.ts';
import { type Actions, decide, isJobFailed, jobChangeMatters, type RowView, renderChangeMatters } from './decide.ts';
import { segmentBudget, stageJobName } from './stages.ts';

const NOW = new Date('2026-11-23T12:00:00Z');
const NAME = 'rnd-0123456789abcdefghjkmnpqrs';

/** Fluent builders, as in jobset's tests: makeRender().status({...}).obj(). */
function makeRender() {
  const r: Render = {
    apiVersion: 'framewright.dev/v1alpha1',
    kind: 'Render',
    metadata: { name: NAME, uid: 'uid-1', generation: 1 },
    spec: {
      renderId: 'rnd_0123456789abcdefghjkmnpqrs',
      accountId: 'acc_0123456789abcdefghjkmnpqrs',
      mode: 'live',
      movieKey: 'movies/x.json',
      outputFormat: 'mp4',
      movieBytes: 10,
      movieSha256: 'a'.repeat(64),
      outputKey: 'renders/x.mp4',
      width: 640,
      height: 360,
      fps: 30,
      draft: false,
      watermark: false,
      estimatedDurationSec: 5,
      maxAttempts: 2,
    },
  };
  const b = {
    status(s: RenderStatus) {
      r.status = { ...r.status, ...s };
      return b;
    },
    deleting() {
      r.metadata.deletionTimestamp = NOW.toISOString();
      return b;
    },
    obj: () => structuredClone(r),
  };
  return b;
}

function makeJob(name = NAME) {
  const j: V1Job = { metadata: { name }, spec: { template: {}, activeDeadlineSeconds: 240 }, status: {} };
  const b = {
    succeeded(n: number) {
      j.status = { ...j.status, succeeded: n };
      return b;
    },
    active(n: number) {
      j.status = { ...j.status, active: n };
      return b;
    },
    failed(n: number) {
      j.status = { ...j.status, failed: n };
      return b;
    },
    condition(type: string, reason?: string) {
      j.status = {
        ...j.status,
        conditions: [...(j.status?.conditions ?? []), { type, status: 'True', ...(reason ? { reason } : {}) }],
      };
      return b;
    },
    ttl(sec: number) {
      j.spec = { ...(j.spec as NonNullable<V1Job['spec']>), ttlSecondsAfterFinished: sec };
      return b;
    },
    obj: () => structuredClone(j),
  };
  return b;
}

const row = (over: Partial<RowView> = {}): RowView => ({
  status: 'queued',
  progress: 0,
  durationSec: null,
  error: null,
  updatedAt: new Date('2026-11-23T11:59:00Z'),
  ...over,
});

function run(render: Render | undefined, r: RowView | undefined, job: V1Job | undefined): Actions {
  return decide({
    render,
    row: r,
    jobs: job ? { single: job } : {},
    now: NOW,
  });
}

/** The actions without the status and events, for the table. */
const core = (a: Actions) => {
  const { status: _s, events: _e, ...rest } = a;
  return rest;
};

describe('decide: one reconcile pass of a Render', () => {
  const output = { durationSec: 5, outputKey: 'renders/x.mp4' };
  const cases: { name: string; render: Render | undefined; row: RowView | undefined; job?: V1Job; want: object }[] = [
    {
      name: 'deleted Render, render running: cancel',
      render: undefined,
      row: row({ status: 'rendering' }),
      want: { cancel: true },
    },
    { name: 'deleted Render, render done: nothing', render: undefined, row: row({ status: 'done' }), want: {} },
    { name: 'Render being deleted: wait for it to go', render: makeRender().deleting().obj(), row: row(), want: {} },
    {
      name: 'Render without a row: delete it',
      render: makeRender().obj(),
      row: undefined,
      want: { deleteRender: true },
    },
    {
      name: 'queued, no Job: create it',
      render: makeRender().obj(),
      row: row(),
      want: { createJob: { stage: 'single' } },
    },
    {
      name: 'Job running, worker reports rendering 40%: mirror',
      render: makeRender().status({ phase: 'rendering', progress: 40, durationSec: 5 }).obj(),
      row: row({ status: 'preparing', progress: 10 }),
      job: makeJob().active(1).obj(),
      want: { progress: { phase: 'rendering', progress: 40, durationSec: 5 } },
    },
    {
      name: 'Job running, nothing new reported: nothing to mirror',
      render: makeRender().status({ phase: 'rendering', progress: 40, durationSec: 5 }).obj(),
      row: row({ status: 'rendering', progress: 40, durationSec: 5 }),
      job: makeJob().active(1).obj(),
      want: {},
    },
    {
      name: 'Job complete with the output reported: complete',
      render: makeRender()
        .status({ phase: 'rendering', progress: 99, ...output })
        .obj(),
      row: row({ status: 'rendering', progress: 90, durationSec: 5 }),
      job: makeJob().condition('Complete').obj(),
      want: { complete: output, jobTtl: [NAME] },
    },
    {
      name: 'Job complete without an output: INTERNAL',
      render: makeRender().status({ phase: 'rendering', progress: 99 }).obj(),
      row: row({ status: 'rendering' }),
      job: makeJob().condition('Complete').obj(),
      want: {
        fail: {
          code: 'INTERNAL',
          message: 'The render worker exited without reporting its output. Create the render again.',
        },
        jobTtl: [NAME],
      },
    },
    {
      name: "Job failed by the pod failure policy: the worker's own error, with its path",
      render: makeRender()
        .status({
          phase: 'preparing',
          error: { code: 'ASSET_UNREACHABLE', message: 'gone', path: 'scenes[0].elements[1].src' },
        })
        .obj(),
      row: row({ status: 'preparing' }),
      job: makeJob().failed(1).condition('Failed', 'PodFailurePolicy').obj(),
      want: {
        fail: { code: 'ASSET_UNREACHABLE', message: 'gone', path: 'scenes[0].elements[1].src' },
        jobTtl: [NAME],
      },
    },
    {
      name: 'Job failed, backoff limit: INTERNAL, stopped twice',
      render: makeRender().status({ phase: 'preparing' }).obj(),
      row: row({ status: 'preparing' }),
      job: makeJob().failed(2).condition('Failed', 'BackoffLimitExceeded').obj(),
      want: {
        fail: {
          code: 'INTERNAL',
          message:
            'The render worker stopped unexpectedly 2 times, so the render was stopped. Create it again; if that fails too, report the render id.',
        },
        jobTtl: [NAME],
      },
    },
    {
      name: 'render done, finished Job without TTL: let it be collected',
      render: makeRender().status({ phase: 'done', progress: 100 }).obj(),
      row: row({ status: 'done', progress: 100, durationSec: 5 }),
      job: makeJob().condition('Complete').obj(),
      want: { jobTtl: [NAME] },
    },
    {
      name: 'render done, TTL already set: nothing',
      render: makeRender().status({ phase: 'done', progress: 100 }).obj(),
      row: row({ status: 'done', progress: 100, durationSec: 5 }),
      job: makeJob().condition('Complete').ttl(3600).obj(),
      want: {},
    },
    {
      name: 'render failed elsewhere while its Job runs: stop the Job',
      render: makeRender().obj(),
      row: row({ status: 'failed', error: { code: 'INTERNAL', message: 'x', docsUrl: 'http://d' } }),
      job: makeJob().active(1).obj(),
      want: { deleteJobs: [NAME] },
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(core(run(c.render, c.row, c.job)), c.want));
  }

  it('isJobFailed: Failed, or FailureTarget while the last pods terminate', () => {
    assert.equal(isJobFailed(makeJob().failed(1).condition('FailureTarget', 'BackoffLimitExceeded').obj()), true);
    assert.equal(isJobFailed(makeJob().failed(2).condition('Failed', 'BackoffLimitExceeded').obj()), true);
    assert.equal(isJobFailed(makeJob().active(1).obj()), false);
    assert.equal(isJobFailed(makeJob().condition('Complete').obj()), false);
  });

  it('Job failed after OOM kills (the reconciler read its pods): RENDER_FAILED naming the memory limit', () => {
    const job = makeJob().failed(2).condition('Failed', 'BackoffLimitExceeded').obj();
    job.spec = {
      ...(job.spec as NonNullable<V1Job['spec']>),
      template: { spec: { containers: [{ name: 'render', resources: { limits: { memory: '96Mi' } } }] } },
    };
    const a = decide({
      render: makeRender().status({ phase: 'rendering' }).obj(),
      row: row({ status: 'rendering' }),
      jobs: { single: job },
      now: NOW,
      terminations: ['OOMKilled', 'OOMKilled'],
    });
    assert.deepEqual(a.fail, { code: 'RENDER_FAILED', message: outOfMemory(2, 2, '96Mi') });
  });

  it('the pass that creates the Job writes nothing else; the next names it, with the event', () => {
    const first = run(makeRender().obj(), row(), undefined);
    assert.deepEqual(first, { createJob: { stage: 'single' }, events: [] });
    const second = run(makeRender().obj(), row(), makeJob().obj());
    assert.deepEqual(second.events, [{ type: 'Normal', reason: 'JobCreated', message: `Created Job ${NAME}` }]);
    assert.equal(second.status?.phase, 'queued');
    assert.equal(second.status?.jobName, NAME);
    assert.deepEqual(
      second.status?.conditions?.map((c) => [c.type, c.status, c.reason]),
      [['Started', 'True', 'JobCreated']],
    );
    // Once the status names the Job, a pass has nothing to write and no event to record.
    const third = run(
      makeRender()
        .status({ ...second.status })
        .obj(),
      row(),
      makeJob().obj(),
    );
    assert.equal(third.status, undefined);
    assert.deepEqual(third.events, []);
  });

  it('completion writes the final status once: done, 100, Complete, attempts, completion time', () => {
    const render = makeRender()
      .status({ phase: 'rendering', progress: 99, ...output })
      .obj();
    const job = makeJob().condition('Complete').obj();
    job.status = { ...job.status, succeeded: 1, failed: 1 };
    const a = run(render, row({ status: 'rendering', progress: 90 }), job);
    assert.equal(a.status?.phase, 'done');
    assert.equal(a.status?.progress, 100);
    assert.equal(a.status?.attempts, 2);
    assert.equal(a.status?.jobName, NAME);
    assert.equal(a.status?.completionTime, '2026-11-23T12:00:00Z');
    assert.deepEqual(
      a.status?.conditions?.map((c) => [c.type, c.status, c.reason]),
      [
        ['Started', 'True', 'JobCreated'],
        ['Complete', 'True', 'Rendered'],
      ],
    );
    assert.deepEqual(
      a.events.map((e) => e.reason),
      ['Completed'],
    );
  });

  it('a failure names its code as the Failed condition reason and is a Warning event', () => {
    const render = makeRender()
      .status({ error: { code: 'ASSET_UNREACHABLE', message: 'gone' } })
      .obj();
    const a = run(render, row({ status: 'preparing' }), makeJob().condition('Failed', 'PodFailurePolicy').obj());
    assert.equal(a.status?.phase, 'failed');
    assert.deepEqual(a.status?.error, { code: 'ASSET_UNREACHABLE', message: 'gone' });
    assert.equal(a.status?.conditions?.find((c) => c.type === 'Failed')?.reason, 'AssetUnreachable');
    assert.deepEqual(a.events, [{ type: 'Warning', reason: 'Failed', message: 'ASSET_UNREACHABLE: gone' }]);
  });

  it('a second pass over the status it wrote writes nothing (one status write per change)', () => {
    const render = makeRender()
      .status({ phase: 'rendering', progress: 99, ...output })
      .obj();
    const job = makeJob().condition('Complete').obj();
    const first = run(render, row({ status: 'rendering' }), job);
    const after = makeRender()
      .status({ ...render.status, ...first.status })
      .obj();
    const second = run(
      after,
      row({ status: 'done', progress: 100, durationSec: 5 }),
      makeJob().condition('Complete').ttl(60).obj(),
    );
    assert.equal(second.status, undefined);
    assert.deepEqual(second.events, []);
  });

  describe('a finished Render is deleted RENDER_TTL_SECONDS after it finished', () => {
    const done = row({ status: 'done', progress: 100, durationSec: 5 });
    const finished = (at: string) =>
      makeRender()
        .status({ phase: 'done', progress: 100, completionTime: at, ...output })
        .obj();
    const withTtl = (render: Render, r: RowView, ttl: number | undefined) =>
      decide({
        render,
        row: r,
        jobs: {},
        now: NOW,
        renderTtlSec: ttl,
      });

    it('past its TTL: deleted (the render stays in Postgres)', () => {
      const a = withTtl(finished('2026-11-23T10:59:59Z'), done, 3600);
      assert.deepEqual(core(a), { deleteRender: true, expired: true });
    });
    it('within its TTL: kept, and looked at again when it runs out', () => {
      const a = withTtl(finished('2026-11-23T11:30:00Z'), done, 3600);
      assert.equal(a.deleteRender, undefined);
      assert.equal(a.requeueAfterMs, 30 * 60_000 + 1000);
    });
    it('no TTL: kept, no requeue', () => {
      const a = withTtl(finished('2026-11-01T00:00:00Z'), done, undefined);
      assert.equal(a.deleteRender, undefined);
      assert.equal(a.requeueAfterMs, undefined);
    });
    it('a render still running is never deleted by the TTL, whatever its Render says', () => {
      const a = withTtl(finished('2026-11-01T00:00:00Z'), row({ status: 'rendering' }), 0);
      assert.equal(a.deleteRender, undefined);
    });
    it('the pass that records the outcome asks to be called back when the TTL runs out', () => {
      const render = makeRender()
        .status({ phase: 'rendering', progress: 99, ...output })
        .obj();
      const job = makeJob().condition('Complete').obj();
      const a = decide({
        render,
        row: row({ status: 'rendering' }),
        jobs: { single: job },
        now: NOW,
        renderTtlSec: 60,
      });
      assert.ok(a.complete);
      assert.equal(a.requeueAfterMs, 61_000);
    });
  });
});

describe('which watch events make a pass', () => {
  const base = makeRender().status({ phase: 'queued', jobName: NAME, attempts: 0 }).obj();
  const cases: [string, Render, boolean][] = [
    [
      "the operator's own status write (attempts, conditions)",
      makeRender()
        .status({ ...base.status, attempts: 1, startTime: '2026-11-23T12:00:00Z' })
        .obj(),
      false,
    ],
    [
      "the operator's own final phase",
      makeRender()
        .status({ ...base.status, phase: 'done' })
        .obj(),
      false,
    ],
    [
      'the worker reports preparing',
      makeRender()
        .status({ ...base.status, phase: 'preparing' })
        .obj(),
      true,
    ],
    [
      'the worker reports progress',
      makeRender()
        .status({ ...base.status, progress: 30 })
        .obj(),
      true,
    ],
    [
      'the worker reports its output',
      makeRender()
        .status({ ...base.status, outputKey: 'renders/x.mp4', durationSec: 5 })
        .obj(),
      true,
    ],
    [
      'the worker reports an error',
      makeRender()
        .status({ ...base.status, error: { code: 'ASSET_UNREACHABLE', message: 'x' } })
        .obj(),
      true,
    ],
    [
      'the Render is being deleted',
      makeRender()
        .status({ ...base.status })
        .deleting()
        .obj(),
      true,
    ],
  ];
  for (const [name, now, want] of cases)
    it(`Render: ${name}`, () => assert.equal(renderChangeMatters(base, now), want));

  const job = makeJob().obj();
  const jobCases: [string, V1Job, boolean][] = [
    ['metadata only (our TTL patch)', makeJob().ttl(60).obj(), false],
    ['a pod started', makeJob().active(1).obj(), true],
    ['a pod failed', makeJob().failed(1).obj(), true],
    ['finished', makeJob().condition('Complete').obj(), true],
  ];
  for (const [name, now, want] of jobCases) it(`Job: ${name}`, () => assert.equal(jobChangeMatters(job, now), want));
});

describe('decide: a render over many pods (prepare, an Indexed Job of segments, join)', () => {
  const segments = { maxSegments: 8, minSegmentSec: 60 };
  const long = () => {
    const r = makeRender().obj();
    r.spec.estimatedDurationSec = 600;
    return r;
  };
  const job = (stage: 'prepare' | 'segments' | 'join') => makeJob(stageJobName(NAME, stage));
  const pass = (render: Render, r: RowView, jobs: Partial<Record<'prepare' | 'segments' | 'join', V1Job>>) =>
    decide({ render, row: r, jobs, segments, now: NOW });
  const prepared = { segments: 4, totalFrames: 1200, durationSec: 40 };

  it('the segment budget: one per RENDER_SEGMENT_SECONDS of movie, at most RENDER_MAX_SEGMENTS, at least 1', () => {
    assert.equal(segmentBudget(600, segments), 8);
    assert.equal(segmentBudget(150, segments), 2);
    assert.equal(segmentBudget(59, segments), 1);
    assert.equal(segmentBudget(undefined, segments), 1);
    assert.equal(segmentBudget(6000, { maxSegments: 1, minSegmentSec: 60 }), 1);
  });
  it('a long movie starts with its prepare Job; a short one with a single Job', () => {
    assert.deepEqual(core(pass(long(), row(), {})), { createJob: { stage: 'prepare', maxSegments: 8 } });
    assert.deepEqual(core(pass(makeRender().obj(), row(), {})), { createJob: { stage: 'single' } });
  });
  it('a long movie of a format not split over pods (audio, a still: spec.singlePod) runs as a single Job', () => {
    const audio = long();
    audio.spec.singlePod = true;
    assert.deepEqual(core(pass(audio, row(), {})), { createJob: { stage: 'single' } });
  });
  it('prepare running: its report is mirrored as a one-pod render', () => {
    const render = makeRender().status({ phase: 'preparing', progress: 12 }).obj();
    const a = pass(render, row(), { prepare: job('prepare').active(1).obj() });
    assert.deepEqual(core(a), { progress: { phase: 'preparing', progress: 12 } });
  });
  it('prepare complete with its plan: the segments Job, one pod per segment', () => {
    const render = makeRender()
      .status({ phase: 'preparing', progress: 19, ...prepared })
      .obj();
    const a = pass(render, row({ status: 'preparing', progress: 19 }), {
      prepare: job('prepare').succeeded(1).condition('Complete').obj(),
    });
    assert.deepEqual(a.createJob, { stage: 'segments', count: 4 });
    assert.equal(a.fail, undefined);
    assert.equal(a.status?.segmentsReady, '0/4');
  });
  it('prepare complete without a plan: failed, nothing made', () => {
    const a = pass(makeRender().status({ phase: 'preparing' }).obj(), row({ status: 'preparing' }), {
      prepare: job('prepare').condition('Complete').obj(),
    });
    assert.equal(a.createJob, undefined);
    assert.equal(a.fail?.code, 'INTERNAL');
  });
  it('segments running: progress is the sum of the pods frames, the status counts finished segments', () => {
    const render = makeRender()
      .status({ phase: 'preparing', progress: 19, ...prepared, segmentFrames: { '0': 300, '1': 150, '3': 0 } })
      .obj();
    const a = pass(render, row({ status: 'preparing', progress: 19 }), {
      prepare: job('prepare').succeeded(1).condition('Complete').obj(),
      segments: job('segments').active(3).succeeded(1).obj(),
    });
    // 20 + floor(79 * 450 / 1200) = 49, as the one-machine renderer counts.
    assert.deepEqual(a.progress, { phase: 'rendering', progress: 49, durationSec: 40 });
    assert.equal(a.status?.phase, 'rendering');
    assert.equal(a.status?.progress, 49);
    assert.equal(a.status?.segmentsReady, '1/4');
    assert.equal(a.status?.jobName, stageJobName(NAME, 'segments'));
    assert.equal(a.status?.attempts, 5);
    // The first pass that sees the segments Job says so, once: the status now names it.
    assert.deepEqual(a.events, [
      {
        type: 'Normal',
        reason: 'JobCreated',
        message: `Created Job ${stageJobName(NAME, 'segments')}: 4 segments of 1200 frames`,
      },
    ]);
    const again = pass(
      { ...render, status: { ...render.status, ...a.status } },
      row({ status: 'rendering', progress: 49 }),
      {
        segments: job('segments').active(3).succeeded(1).obj(),
      },
    );
    assert.deepEqual(again.events, []);
  });
  it('a rerun segment starting again from 0 never takes the progress back', () => {
    const render = makeRender()
      .status({ phase: 'rendering', progress: 60, ...prepared, segmentFrames: { '0': 0 } })
      .obj();
    const a = pass(render, row({ status: 'rendering', progress: 60 }), {
      segments: job('segments').active(4).failed(1).obj(),
    });
    assert.equal(a.progress, undefined);
    assert.equal(a.status?.progress ?? render.status?.progress, 60);
  });
  it('segments complete: the join Job', () => {
    const render = makeRender()
      .status({
        phase: 'rendering',
        progress: 90,
        ...prepared,
        segmentFrames: { '0': 300, '1': 300, '2': 300, '3': 300 },
      })
      .obj();
    const a = pass(render, row({ status: 'rendering', progress: 90 }), {
      prepare: job('prepare').condition('Complete').obj(),
      segments: job('segments').succeeded(4).condition('Complete').obj(),
    });
    assert.deepEqual(a.createJob, { stage: 'join' });
    assert.equal(a.status?.segmentsReady, '4/4');
  });
  it('an index that failed past its retries fails the render (INTERNAL); a bad input is the pod report', () => {
    const render = makeRender()
      .status({ phase: 'rendering', ...prepared })
      .obj();
    const crashed = pass(render, row({ status: 'rendering' }), {
      segments: job('segments').failed(2).condition('Failed', 'MaxFailedIndexesExceeded').obj(),
    });
    assert.equal(crashed.fail?.code, 'INTERNAL');
    assert.match(crashed.fail?.message ?? '', /stopped unexpectedly 2 times/);
    const error = { code: 'ASSET_INVALID', message: 'The clip is corrupt', path: '/scenes/2/elements/0/src' };
    const bad = pass(
      makeRender()
        .status({ phase: 'rendering', ...prepared, error })
        .obj(),
      row({ status: 'rendering' }),
      {
        segments: job('segments').active(3).failed(1).condition('FailureTarget', 'PodFailurePolicy').obj(),
      },
    );
    assert.deepEqual(bad.fail, error);
  });
  it('join complete with the MP4: the render is done, and all three Jobs may go', () => {
    const render = makeRender()
      .status({ phase: 'rendering', progress: 99, ...prepared, outputKey: 'renders/x.mp4' })
      .obj();
    const a = pass(render, row({ status: 'rendering', progress: 99 }), {
      prepare: job('prepare').condition('Complete').obj(),
      segments: job('segments').condition('Complete').obj(),
      join: job('join').condition('Complete').obj(),
    });
    assert.deepEqual(a.complete, { durationSec: 40, outputKey: 'renders/x.mp4' });
    assert.deepEqual(
      a.jobTtl,
      ['prepare', 'segments', 'join'].map((s) => stageJobName(NAME, s as 'join')),
    );
    assert.equal(a.status?.segmentsReady, '4/4');
    assert.equal(a.status?.phase, 'done');
  });
  it('a render failed elsewhere while its segments run: the segments Job is stopped', () => {
    const a = pass(
      makeRender()
        .status({ ...prepared })
        .obj(),
      row({ status: 'failed' }),
      {
        prepare: job('prepare').condition('Complete').obj(),
        segments: job('segments').active(4).obj(),
      },
    );
    assert.deepEqual(a.deleteJobs, [stageJobName(NAME, 'segments')]);
  });
});
