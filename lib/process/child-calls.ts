/**
 * The child's side of a supervised child (lib/process/supervised-child.ts): the wire messages and
 * `answerCalls`, which a child entry runs to answer its parent's calls. Kept apart from the parent's
 * side so a child's bundle (lib/bundled-entry.ts) carries only this.
 */

/** A call's error as it crosses the channel: a catalogue or errno code and a JSON path when it had them. */
export interface WireError {
  message: string;
  code?: string;
  path?: string;
}

/** Parent to child. */
export type ToChild<Req> = { fw: 'call'; id: number; request: Req };

/** Child to parent: `ready` once, then per call any number of `event`s and one `reply`. */
export type FromChild<Res, Ev> =
  | { fw: 'ready' }
  | { fw: 'event'; id: number; event: Ev }
  | { fw: 'reply'; id: number; ok: true; value: Res }
  | { fw: 'reply'; id: number; ok: false; error: WireError };

function wireError(err: unknown): WireError {
  if (!(err instanceof Error)) return { message: String(err) };
  const { code, path } = err as { code?: unknown; path?: unknown };
  return {
    message: err.message,
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof path === 'string' ? { path } : {}),
  };
}

/** Sends on the IPC channel; resolves once handed to it (or at once when the parent is gone). */
function post<Res, Ev>(message: FromChild<Res, Ev>): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) return resolve();
    // A failed send (the parent went away meanwhile) is the parent's to notice: it sees us exit.
    process.send(message, undefined, {}, () => resolve());
  });
}

/**
 * Answers the parent's calls with `handler`, then tells the parent it is ready. `emit` sends one of
 * the call's events (progress) and resolves once it is handed to the channel. What the handler
 * throws is answered as the call's error, with the error's `code` and `path` when they are strings
 * (an AppError's catalogue code, an errno). `serial` answers one call at a time, in order. Once
 * the parent has disconnected, calls not yet started are dropped; resolves when none is running.
 */
export function answerCalls<Req, Res, Ev = never>(
  handler: (request: Req, emit: (event: Ev) => Promise<void>) => Promise<Res> | Res,
  options: { serial?: boolean } = {},
): Promise<void> {
  let queue: Promise<void> = Promise.resolve();
  let running = 0;
  let disconnected = !process.connected;
  let idle: (() => void) | undefined;
  const finished = new Promise<void>((resolve) => {
    idle = resolve;
  });
  const settle = () => {
    if (disconnected && running === 0) idle?.();
  };
  const answer = async (call: ToChild<Req>) => {
    // A call still queued when the parent went away: nobody would take its answer.
    if (disconnected) return;
    const emit = (event: Ev) => post<Res, Ev>({ fw: 'event', id: call.id, event });
    try {
      const value = await handler(call.request, emit);
      await post<Res, Ev>({ fw: 'reply', id: call.id, ok: true, value });
    } catch (err) {
      await post<Res, Ev>({ fw: 'reply', id: call.id, ok: false, error: wireError(err) });
    }
  };
  process.on('message', (m: unknown) => {
    const call = m as ToChild<Req>;
    if (call?.fw !== 'call') return;
    running++;
    const run = () => answer(call).finally(() => running--);
    let done: Promise<void>;
    if (options.serial) {
      queue = queue.then(run);
      done = queue;
    } else done = run();
    void done.then(settle);
  });
  process.once('disconnect', () => {
    disconnected = true;
    settle();
  });
  void post({ fw: 'ready' });
  settle();
  return finished;
}
