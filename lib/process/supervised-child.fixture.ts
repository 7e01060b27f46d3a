/**
 * A child for supervised-child.test.ts, run bundled as the product's children are: each request
 * says what to do (answer after a delay with some events, answer with an error, write to stderr
 * and exit, never answer). FIXTURE_READY_AFTER_MS delays its readiness; FIXTURE_EXIT_AT_START
 * makes it write to stderr and exit before it is ready; FIXTURE_OUTLIVE keeps it running when its
 * parent has gone.
 */
import { answerCalls } from './child-calls.ts';

export type FixtureRequest =
  | { op: 'echo'; value: number; delayMs?: number; events?: number }
  | { op: 'fail'; message: string; code?: string; path?: string }
  | { op: 'crash'; stderr: string; exitCode: number }
  | { op: 'hang' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (process.env.FIXTURE_EXIT_AT_START) {
  process.stderr.write('fixture: cannot start\n');
  process.exit(Number(process.env.FIXTURE_EXIT_AT_START));
}

const serve = () =>
  answerCalls<FixtureRequest, number, string>(async (request, emit) => {
    switch (request.op) {
      case 'echo':
        for (let i = 0; i < (request.events ?? 0); i++) await emit(`${request.value}.${i}`);
        await sleep(request.delayMs ?? 0);
        return request.value;
      case 'fail':
        throw Object.assign(new Error(request.message), { code: request.code, path: request.path });
      case 'crash':
        // Exits once all of it is written (a large write to a pipe may be left half done by an exit).
        process.stderr.write(request.stderr, () => process.exit(request.exitCode));
        return new Promise<number>(() => {});
      case 'hang':
        return new Promise<number>(() => {});
    }
    throw new Error('unknown op');
  });

setTimeout(serve, Number(process.env.FIXTURE_READY_AFTER_MS ?? 0));
// FIXTURE_OUTLIVE: stays when its parent goes, as a busy child would; only the death signal ends it.
if (process.env.FIXTURE_OUTLIVE) setInterval(() => {}, 60_000);
else process.on('disconnect', () => process.exit(0));
