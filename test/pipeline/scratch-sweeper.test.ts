import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { scratchDirs, sweepScratch } from '../../api/execution/scratch-sweeper.ts';
import { eachBackend, logger, newAccount } from '../api/helpers.ts';
import { insertQueuedRender } from '../services/cluster-fixture.ts';

/**
 * Issue 42: what a serve killed outright leaves under DATA_DIR/tmp. The sweep removes the files of
 * attempts that no longer hold their render (finished, taken by another attempt, lease run out) and
 * staged uploads idle for an hour and the scratch directories of workers that ended; a live
 * attempt's files, a fresh upload, a live worker's directory and names it does not know stay. PostgreSQL and PGlite. (test/pipeline/crash-recovery.test.ts: after a real SIGKILL.)
 */
test('the scratch sweep removes what no live attempt or upload owns, nothing else', async (t) => {
  await eachBackend(t, async (t, db) => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'fw-scratch-'));
    t.after(() => rm(dataDir, { recursive: true, force: true }));
    const dirs = scratchDirs(dataDir);
    await mkdir(dirs.renders, { recursive: true });
    await mkdir(dirs.uploads, { recursive: true });
    const { accountId, keyId } = await newAccount(db);
    const movie = { scenes: [] };
    const render = async (status: string, owner: string | null, leaseSec: number) => {
      const row = await insertQueuedRender(db.sql, { accountId, keyId, movie });
      await db.sql`UPDATE renders SET status = ${status}, lease_owner = ${owner},
        lease_expires_at = clock_timestamp() + ${leaseSec}::float8 * interval '1 second' WHERE id = ${row.id}`;
      return row.id;
    };
    const live = await render('rendering', 'exec-1-abc.aaaaaa111111', 30);
    const retaken = await render('rendering', 'exec-2-def.bbbbbb222222', 30);
    const expired = await render('preparing', 'exec-3-ghi.cccccc333333', -5);
    // Run by the sweeping process itself, its lease run out while the database was away.
    const mineExpired = await render('rendering', 'exec-4-jkl.ffffff666666', -5);
    const done = await render('done', null, 0);
    const files = {
      kept: [
        `${live}.1-aaaaaa111111.mp4.part`,
        `${live}.1-aaaaaa111111.mp4.chunks`,
        `${mineExpired}.1-ffffff666666.mp4.part`,
        'notes.txt',
      ],
      removed: [
        `${retaken}.1-999999999999.mp4.part`,
        `${expired}.1-cccccc333333.mp4.part`,
        `${done}.1-dddddd444444.mp4`,
        `${done}.1-dddddd444444.mp4.part`,
        'rnd_nosuchrender.2-eeeeee555555.mp4.part',
      ],
    };
    for (const name of [...files.kept, ...files.removed]) await writeFile(path.join(dirs.renders, name), 'x');
    await writeFile(path.join(dirs.uploads, 'ast_fresh.png'), 'x');
    await writeFile(path.join(dirs.uploads, 'ast_idle.png'), 'x');
    const idleSince = new Date(Date.now() - 61 * 60_000);
    await utimes(path.join(dirs.uploads, 'ast_idle.png'), idleSince, idleSince);

    // The workers' temporary directory: one of a worker that has ended, one of a live process.
    const workerTmp = path.join(dataDir, 'worker-tmp');
    await mkdir(workerTmp);
    const ended = spawn('true');
    await once(ended, 'exit');
    for (const [name, pid] of [
      ['framewright-render-ended', ended.pid],
      ['framewright-render-alive', process.pid],
    ] as const) {
      await mkdir(path.join(workerTmp, name));
      await writeFile(path.join(workerTmp, name, '.owner'), `${hostname()} ${pid}\n`);
    }

    const sweep = () =>
      sweepScratch({ db, dataDir, workerTmp, running: () => ['ffffff666666'], logger, now: () => new Date() });
    const removed = await sweep();
    assert.equal(removed, files.removed.length + 2);
    assert.deepEqual(await readdir(workerTmp), ['framewright-render-alive']);
    assert.deepEqual((await readdir(dirs.renders)).sort(), [...files.kept].sort());
    assert.deepEqual(await readdir(dirs.uploads), ['ast_fresh.png']);
    assert.equal(await sweep(), 0, 'nothing more');
  });
});
