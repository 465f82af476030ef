// The benches' side of load-worker.mjs: concurrent clients in a worker thread, so they do not share
// an event loop with the api-gateway they measure.
import path from 'node:path';
import { Worker } from 'node:worker_threads';

export interface RunResult {
  /** Milliseconds, in job order. */
  latencies: number[];
  /** The first five errors' messages, then '' for each further one. */
  errors: string[];
  wallMs: number;
}

/** A GET of the gateway under test, or a statement (or several on one connection) sent through pg. */
export type LoadJob = { url: string } | { name?: string; text: string; values: unknown[] } | unknown[];

export interface LoadTarget {
  /** The gateway's origin and a signed-in admin's cookie (sent with every GET). */
  baseUrl: string;
  cookie: string;
  databaseUrl: string;
  /** Clients at most, over all runs (the worker's pool size). */
  concurrency: number;
}

export class LoadWorker {
  private readonly worker: Worker;
  private seq = 0;
  private readonly pending = new Map<number, (message: Record<string, unknown>) => void>();

  constructor(target: LoadTarget) {
    this.worker = new Worker(path.join(__dirname, 'load-worker.mjs'), { workerData: target });
    this.worker.on('message', (message: Record<string, unknown>) => {
      const id = message.id as number;
      this.pending.get(id)?.(message);
      this.pending.delete(id);
    });
  }

  private send(message: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = ++this.seq;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.worker.postMessage({ ...message, id });
    });
  }

  /** The jobs, `concurrency` at a time; a failed job is counted in `errors`, not thrown. */
  async run(kind: 'http' | 'sql', concurrency: number, jobs: LoadJob[]): Promise<RunResult> {
    const reply = await this.send({ type: 'run', kind, concurrency, jobs });
    if (typeof reply.fatal === 'string') throw new Error(reply.fatal);
    return reply as unknown as RunResult;
  }

  /** GETs of the URLs, `concurrency` at a time. */
  http(concurrency: number, urls: readonly string[]): Promise<RunResult> {
    return this.run(
      'http',
      concurrency,
      urls.map((url) => ({ url })),
    );
  }

  /** `http`, throwing the first failure instead of counting it. */
  async httpOk(concurrency: number, urls: readonly string[]): Promise<RunResult> {
    const result = await this.http(concurrency, urls);
    const failed = result.errors.find((e) => e !== '');
    if (failed !== undefined) throw new Error(failed);
    return result;
  }

  async close(): Promise<void> {
    await this.send({ type: 'close' });
    await this.worker.terminate();
  }
}

/** `n` copies of one URL, or the URLs taken in turn. */
export const repeat = (n: number, urls: string | readonly string[]): string[] => {
  const list = typeof urls === 'string' ? [urls] : urls;
  return Array.from({ length: n }, (_, i) => list[i % list.length] ?? '');
};
