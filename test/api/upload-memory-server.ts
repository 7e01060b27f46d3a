/**
 * The API in a process of its own for the upload memory test (assets-upload.test.ts), so the
 * memory measured is the server's alone. Talks to its parent over IPC:
 *   -> { port, key }                 once listening (an account with a key is made)
 *   <- 'mark'   -> { baseline }      RSS now (after a GC); the peak (VmHWM) starts again from here
 *   <- 'peak'   -> { peak }          highest RSS since the mark
 *   <- 'exit'                        closes everything and exits
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { backends, newAccount, startApp, testConfig } from './helpers.ts';

const send = (message: unknown) => process.send?.(message);

function vmHwm(): number | undefined {
  const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : undefined;
}

// VmHWM is reset through clear_refs where the kernel allows it; otherwise a sampler keeps the peak.
let sampled = 0;
let hwmReset = false;
const sampler = setInterval(() => {
  sampled = Math.max(sampled, process.memoryUsage.rss());
}, 5);

const backend = backends()[0];
if (!backend) throw new Error('no database backend');
const db = await backend.open();
const dataDir = await mkdtemp(path.join(tmpdir(), 'fw-upload-mem-'));
const { key } = await newAccount(db, { plan: 'pro' });
const app = await startApp(db, { config: testConfig({ dataDir }) });
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('no port');

process.on('message', async (message) => {
  if (message === 'mark') {
    (globalThis as { gc?: () => void }).gc?.();
    const baseline = process.memoryUsage.rss();
    try {
      writeFileSync('/proc/self/clear_refs', '5');
      hwmReset = true;
    } catch {
      hwmReset = false;
    }
    sampled = baseline;
    send({ baseline });
  } else if (message === 'peak') {
    const hwm = hwmReset ? vmHwm() : undefined;
    send({ peak: Math.max(sampled, hwm ?? 0), source: hwm === undefined ? 'sampled' : 'VmHWM' });
  } else if (message === 'exit') {
    clearInterval(sampler);
    await app.close();
    await db.close();
    await rm(dataDir, { recursive: true, force: true });
    process.exit(0);
  }
});
send({ port: address.port, key });
