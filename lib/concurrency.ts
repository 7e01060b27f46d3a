/**
 * At most `n` of the tasks given to the returned function run at once; the rest wait their turn
 * in order. For work that spawns processes or opens connections per item (media sources of a
 * document: a hostile one may name thousands), so the machine is not asked for all at once.
 */
export function limitConcurrency(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    running--;
    waiting.shift()?.();
  };
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      release();
    }
  };
}
