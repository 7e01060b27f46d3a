import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// postgres.js does not export its queue; the pool imports this very file.
const { default: Queue } = (await import(path.join(ROOT, 'node_modules/postgres/src/queue.js'))) as {
  default: <T>() => { length: number; push(x: T): T; shift(): T; remove(x: T): T | null };
};

test('patches/postgres+3.4.9.patch is applied to the installed postgres.js', () => {
  // A reverse dry run succeeds only on patched files (scripts/install.sh applies it).
  execFileSync('patch', ['-p1', '-R', '--dry-run', '-s', '-f', '-i', 'patches/postgres+3.4.9.patch'], { cwd: ROOT });
});

test('the pool queue stays FIFO with removals while it never drains (compaction included)', () => {
  // The busy-connection pattern of postgres.js under load: shift one, push it back, and remove
  // the one whose query finished, with the queue never empty.
  const q = Queue<number>();
  const model: number[] = [];
  for (let i = 0; i < 8; i++) {
    q.push(i);
    model.push(i);
  }
  let next = 8;
  for (let step = 0; step < 20_000; step++) {
    const a = q.shift();
    assert.equal(a, model.shift());
    q.push(a);
    model.push(a);
    if (step % 3 === 0) {
      const victim = model[step % model.length] as number;
      assert.equal(q.remove(victim), victim);
      model.splice(model.indexOf(victim), 1);
      q.push(next);
      model.push(next++);
    }
    assert.equal(q.length, model.length);
  }
  assert.equal(q.remove(-1), null);
  const rest: number[] = [];
  while (q.length > 0) rest.push(q.shift());
  assert.deepEqual(rest, model);
});
