/**
 * Loaded into every test file's process (scripts/test.sh, --import). A file whose tests have all
 * ended but whose process stays alive (a connection, a timer, a socket some test did not close)
 * would keep the whole run waiting with no end; once, test/faults/s3-outage.test.ts stayed alive
 * and busy for ten minutes after its last test passed. Thirty seconds after the file's tests end,
 * this says what is still open and ends the process with the tests' own status: the run goes on,
 * and the log names the leak for whoever fixes it.
 */
import { after } from 'node:test';

const LINGER_MS = 30_000;

after(() => {
  setTimeout(() => {
    const file = process.argv.find((a) => a.endsWith('.test.ts')) ?? process.argv.at(-1);
    process.stderr.write(
      `test: ${file} was still running ${LINGER_MS / 1000} s after its tests ended; open: ${process
        .getActiveResourcesInfo()
        .join(', ')}. Exiting with the tests' status.\n`,
    );
    process.exit();
  }, LINGER_MS).unref();
});
