/**
 * Starts `start()` before the file's (or describe block's) tests and stops what it started after
 * them. The answer stands for what was started: reading it before beforeAll ran throws, so a
 * fixture used outside a test says so instead of reading undefined.
 */
export function useFixture<T extends object>(
  start: () => Promise<T>,
  stop: (started: T) => Promise<unknown>,
  timeoutMs?: number,
): T {
  let started: T | undefined;
  const current = (): T => {
    if (started === undefined) throw new Error('fixture read before its beforeAll started it');
    return started;
  };
  beforeAll(async () => {
    started = await start();
  }, timeoutMs);
  afterAll(async () => {
    if (started !== undefined) await stop(started);
  }, timeoutMs);
  return new Proxy({} as T, {
    get: (_, key) => {
      const target = current();
      const value: unknown = Reflect.get(target, key, target);
      // Methods run on the real object (class instances keep their private state).
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    set: (_, key, value) => Reflect.set(current(), key, value),
    has: (_, key) => Reflect.has(current(), key),
  });
}

/** useFixture for what closes itself with `close()`. */
export const useClosable = <T extends { close(): Promise<unknown> }>(
  start: () => Promise<T>,
  timeoutMs?: number,
): T => useFixture(start, (started) => started.close(), timeoutMs);
