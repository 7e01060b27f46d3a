import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { AppError } from '../errors.ts';
import { runMediaTool, startMediaTool } from './ffmpeg-runner.ts';

/** 0.1 s of silence as raw s16le mono at 8 kHz on stdout: 1600 bytes. */
const SILENCE = ['-v', 'error', '-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', '0.1', '-f', 's16le', '-'];
/** Runs for a minute unless stopped. */
const SLOW = ['-v', 'error', '-re', '-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', '60', '-f', 'null', '-'];

const appError = (code: string, message: RegExp) => (err: unknown) =>
  err instanceof AppError && err.code === code && message.test(err.message);

describe('the ffmpeg/ffprobe runner', () => {
  it("resolves with the program's stdout", async () => {
    const out = await runMediaTool('ffmpeg', SILENCE);
    assert.equal(out.length, 1600);
    const probe = await runMediaTool('ffprobe', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-show_entries',
      'stream=codec_type',
      '-of',
      'csv=p=0',
      'anullsrc',
    ]);
    assert.equal(probe.toString().trim(), 'audio');
  });

  it('fails RENDER_FAILED naming the program, its exit code and the end of its stderr', async () => {
    await assert.rejects(
      runMediaTool('ffprobe', ['-v', 'error', '/nonexistent/clip.mp4']),
      appError('RENDER_FAILED', /^ffprobe failed \(exit 1\): \/nonexistent\/clip\.mp4: No such file or directory$/),
    );
  });

  it('shows at most the last 2000 characters of stderr', async () => {
    // One error line per missing input would be short: a long file name makes stderr long.
    const name = `/nonexistent/${'a'.repeat(250)}/${'b'.repeat(250)}/${'c'.repeat(3000)}.mp4`;
    const err = await runMediaTool('ffprobe', ['-v', 'error', name], { label: 'probe' }).then(
      () => assert.fail('resolved'),
      (e: Error) => e,
    );
    const prefix = 'probe failed (exit 1): ';
    assert.ok(err.message.startsWith(prefix), err.message.slice(0, 80));
    assert.equal(err.message.length, prefix.length + 2000);
    assert.ok(err.message.endsWith('c.mp4: No such file or directory'));
  });

  it('fails RENDER_FAILED when the program cannot be started (ENOENT)', async () => {
    await assert.rejects(
      runMediaTool('/nonexistent/ffmpeg', SILENCE),
      appError('RENDER_FAILED', /^\/nonexistent\/ffmpeg could not be started: spawn \/nonexistent\/ffmpeg ENOENT$/),
    );
  });

  it('kills a run that outlasts its timeout', async () => {
    const started = Date.now();
    const run = startMediaTool('ffmpeg', SLOW, { timeoutMs: 300 });
    await assert.rejects(run.done, appError('RENDER_FAILED', /^ffmpeg did not finish within 300 ms/));
    assert.ok(Date.now() - started < 5_000, `took ${Date.now() - started} ms`);
    assert.equal(run.child.signalCode, 'SIGKILL');
  });

  it("stops on its AbortSignal and rejects with the signal's reason", async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled');
    // Aborted once ffmpeg reports progress: it is running, its SIGTERM handler installed (a fixed
    // delay raced its start-up on a loaded machine, where the default action killed it first).
    const run = startMediaTool('ffmpeg', ['-progress', 'pipe:2', '-stats_period', '0.05', ...SLOW], {
      signal: controller.signal,
      onStderr: () => controller.abort(reason),
    });
    await assert.rejects(run.done, (err: unknown) => err === reason);
    // Stopped with SIGTERM, which ffmpeg catches to end what it writes cleanly (exit 255).
    if (run.child.exitCode === null && run.child.signalCode === null) await once(run.child, 'exit');
    assert.equal(run.child.exitCode, 255);
  });

  it('hands stderr to onStderr as it comes', async () => {
    const chunks: Buffer[] = [];
    await runMediaTool('ffmpeg', ['-v', 'info', ...SILENCE.slice(2)], { onStderr: (c) => chunks.push(c) });
    assert.match(Buffer.concat(chunks).toString(), /Input #0, lavfi/);
  });
});
