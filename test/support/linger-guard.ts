/**
 * Loaded into every test file's process (scripts/test.sh, --import): a test file cannot hold the
 * run for ever. Twice a file did: test/faults/s3-outage.test.ts stayed alive and busy after its
 * last test passed, in a CI run for 81 minutes, until CI's limit. Its process was in Node's exit
 * teardown, spinning on a socket handle that could never close: Node's resetAndDestroy() on a
 * socket whose shutdown is under way fails yet marks the handle closing (the test proxy's cut did
 * that; test/services/tcp-proxy.ts resetSocket no longer does). What guards against that class,
 * and the other ways a file can hold the run:
 *
 * - A process whose loop drained exits by process.exit() once the runner has reported, which skips
 *   that teardown.
 * - A minute after the file's tests end, a process still alive says what it still has open and
 *   exits with the tests' own status (the runner has their results): the run goes on, and the log
 *   names the leak.
 * - A watchdog on a thread of its own acts when this thread cannot. Past FW_TEST_FILE_LIMIT_MIN
 *   (20 minutes; the longest file takes about 3) it asks this thread to say what is open and exit
 *   as failed (it can when it is idle, waiting on something that never comes). When this thread
 *   does not answer, or has not exited 15 s after its own linger timer should have, it is busy:
 *   its JavaScript is stopped through the inspector, the stack it was running is written, and it
 *   is made to exit from where it stands (with the tests' status after they ended, as failed past
 *   the limit); when even that fails, the process is killed.
 * - When the process exits, processes its tests started and left running are killed and named:
 *   one holding its stdout (started with stdio inherited) keeps the runner waiting for the file
 *   however the process itself ended.
 */
import { after } from 'node:test';
import { isMainThread, Worker } from 'node:worker_threads';
import { descendants } from '../faults/proc-tree.ts';

// FW_TEST_LINGER_MS and FW_TEST_EXIT_GRACE_MS shorten the waits for the guard's own test.
const LINGER_MS = Number(process.env.FW_TEST_LINGER_MS ?? 60_000);
const EXIT_GRACE_MS = Number(process.env.FW_TEST_EXIT_GRACE_MS ?? 15_000);
const FILE_LIMIT_MS = Number(process.env.FW_TEST_FILE_LIMIT_MIN ?? 20) * 60_000;

const file = process.argv.find((a) => a.endsWith('.test.ts')) ?? process.argv.at(-1);
const say = (line: string) => process.stderr.write(`test: ${file} ${line}\n`);
const openResources = () => process.getActiveResourcesInfo().join(', ');

/**
 * The watchdog thread, plain JavaScript (no loader: execArgv is empty). It is told when the tests
 * end. Past the file's limit it first asks the main thread to exit; a main thread that does not
 * answer, or is still there after its own linger timer, is paused through the inspector (which
 * interrupts running JavaScript), its stack written, and made to exit from where it stands; when
 * that fails too, the process is killed. Nothing it does may throw into the main thread: its
 * writes to stderr (a socket the main thread may have made non-blocking) are best effort.
 */
const WATCHDOG = `
const { parentPort, workerData } = require('node:worker_threads');
const inspector = require('node:inspector');
const fs = require('node:fs');
const { fileLimitMs, lingerMs, graceMs, file } = workerData;
function writeSync(fd, text) {
  try { fs.writeSync(fd, text); } catch {}
}
const startedAt = Date.now();
let endedAt;
let asked;
parentPort.on('message', (m) => { if (m === 'ended') endedAt = Date.now(); });
/**
 * Pauses the main thread (an interrupt: it stops running JavaScript too), writes the stack it was
 * running after \`why\`, and makes it exit from where it stands: with the tests' status after they
 * ended, as failed past the limit (its 'exit' listener then kills what the tests left running).
 * Resolves whether it could.
 */
function stopMain(why, failed) {
  return new Promise((resolve) => {
    const session = new inspector.Session();
    try { session.connectToMainThread(); } catch { return resolve(false); }
    const timer = setTimeout(() => resolve(false), 3000);
    const urls = new Map();
    session.on('Debugger.scriptParsed', ({ params }) => urls.set(params.scriptId, params.url));
    session.on('Debugger.paused', ({ params }) => {
      clearTimeout(timer);
      const frames = params.callFrames;
      const stack = frames.slice(0, 25).map((f) =>
        '    at ' + (f.functionName || '<anonymous>') + ' (' + (urls.get(f.location.scriptId) || '?') + ':' +
        (f.location.lineNumber + 1) + ':' + (f.location.columnNumber + 1) + ')'
      ).join('\\n');
      writeSync(2, 'test: ' + file + ' ' + why + '; its main thread was busy in:\\n' + stack +
        (failed ? '\\nExiting as failed.\\n' : "\\nExiting with the tests' status.\\n"));
      if (frames.length === 0) return resolve(false);
      session.post('Debugger.evaluateOnCallFrame',
        { callFrameId: frames[0].callFrameId, expression: failed ? 'process.exit(1)' : 'process.exit()' });
      resolve(true);
    });
    session.post('Debugger.enable', () => session.post('Debugger.pause'));
  });
}
setInterval(async () => {
  const now = Date.now();
  if (asked === Infinity) return;
  if (asked === undefined && now - startedAt > fileLimitMs) {
    // Asked first: a main thread that is idle, waiting on something that never comes, answers.
    asked = now;
    parentPort.postMessage('has run for ' + ((now - startedAt) / 60000).toFixed(1) + ' minutes, past the limit of ' + fileLimitMs / 60000 + ' (FW_TEST_FILE_LIMIT_MIN)');
    return;
  }
  // Unanswered, or not gone though its own linger timer should have ended it: it is busy.
  const unanswered = asked !== undefined && now - asked >= graceMs;
  const lingering = endedAt !== undefined && now - endedAt >= lingerMs + graceMs;
  if (!unanswered && !lingering) return;
  asked = Infinity;
  const why = lingering
    ? 'was still running ' + Math.round((now - endedAt) / 1000) + ' s after its tests ended'
    : 'did not exit at its limit of ' + fileLimitMs / 60000 + ' minutes (FW_TEST_FILE_LIMIT_MIN)';
  try {
    if (await stopMain(why, !lingering)) await new Promise((resolve) => setTimeout(resolve, 5000));
  } finally {
    writeSync(2, 'test: ' + file + ' ' + why + ', and could not be made to exit. Killed.\\n');
    process.kill(process.pid, 'SIGKILL');
  }
}, 1000);
`;

if (isMainThread) {
  const watchdog = new Worker(WATCHDOG, {
    eval: true,
    execArgv: [],
    workerData: { fileLimitMs: FILE_LIMIT_MS, lingerMs: LINGER_MS, graceMs: EXIT_GRACE_MS, file },
  });
  // The file's limit passed (a hook or a test waiting for ever): say what is open, and fail.
  watchdog.on('message', (reason: string) => {
    say(`${reason}; open: ${openResources()}. Exiting as failed.`);
    process.exit(1);
  });
  // A watchdog that failed (it should not) says so; the file's tests go on without it.
  watchdog.on('error', (err) => say(`its watchdog thread failed: ${err.message}`));
  // After the listeners, which would otherwise keep the process alive.
  watchdog.unref();

  // Node's exit teardown (FreeEnvironment) runs the loop until every handle has closed, for ever
  // when one cannot (see above: a CI run spun at 100% of a core in Environment::CleanupHandles,
  // perf, a TCP handle open, referenced and inactive). Once the runner's own 'beforeExit' work is
  // done (its listener removed after it reported), exit without it, with the runner's status.
  process.on('beforeExit', () => {
    if (process.listenerCount('beforeExit') === 1) process.exit();
  });

  // Processes a test started and left running are ended with it: one holding this process's
  // stdout or stderr (a child started with stdio inherited, or its children) would keep the runner
  // waiting for this file after it exited. esbuild's service (tsx's compiler) ends with its pipe.
  process.on('exit', () => {
    const left = descendants(process.pid).filter((p) => p.comm !== 'esbuild');
    if (left.length === 0) return;
    for (const p of left) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {}
    }
    const names = left.map((p) => `${p.pid} ${p.cmdline.slice(0, 120) || p.comm}`);
    say(`left ${left.length} process(es) running, killed: ${names.join('; ')}`);
  });

  // Root `after` hooks run in the order registered, this one (loaded before the file) first: the
  // linger is counted from the start of the file's own teardown, which it leaves a minute.
  after(() => {
    watchdog.postMessage('ended');
    setTimeout(() => {
      say(
        `was still running ${LINGER_MS / 1000} s after its tests ended; open: ${openResources()}. Exiting with the tests' status.`,
      );
      process.exit();
    }, LINGER_MS).unref();
  });
}
