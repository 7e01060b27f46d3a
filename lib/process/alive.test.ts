import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { processAlive } from './alive.ts';

test('processAlive: this process and a running child are alive; an unreaped zombie and a gone pid are not', async (t) => {
  assert.equal(processAlive(process.pid), true);
  // The shell's child exits after 0.2 s, when its parent has become `sleep 30`, which never reaps it:
  // a zombie for as long as the sleep runs (what an orphan is under a PID 1 that does not reap).
  const parent = spawn('sh', ['-c', 'sleep 0.2 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.after(() => parent.kill('SIGKILL'));
  const [line] = (await once(parent.stdout, 'data')) as [Buffer];
  const zombie = Number(line.toString().trim());
  for (let i = 0; i < 200 && !readFileSync(`/proc/${zombie}/stat`, 'utf8').includes(') Z '); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.match(readFileSync(`/proc/${zombie}/stat`, 'utf8'), /\) Z /, 'the child is a zombie');
  assert.equal(processAlive(parent.pid as number), true, 'the sleeping parent runs');
  assert.equal(processAlive(zombie), false, 'a zombie has ended');
  parent.kill('SIGKILL');
  await once(parent, 'exit');
  assert.equal(processAlive(parent.pid as number), false, 'reaped by Node: gone');
});
