import {
  QUEUE_NAMES,
  jobDefinitions,
  type JobPayload,
  type JobResult,
  type QueueName,
} from '@sprout/contracts';
import { type Job, RATE_LIMIT_ERROR, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { z } from 'zod';
import { jobMetrics, type Metrics } from '../metrics/metrics';

/**
 * Handles one job of a queue; the payload is already parsed with the queue's schema, and the
 * answer is the queue's result type (contracts' jobResultSchemas).
 */
export type JobHandlerFn<Q extends QueueName> = (payload: JobPayload<Q>, job: Job) => Promise<JobResult<Q>>;
export type JobHandlers<Owned extends QueueName> = { [Q in Owned]: JobHandlerFn<Q> };

export interface StartWorkersOptions<Owned extends QueueName> {
  /** Shared ioredis client; BullMQ duplicates it for each worker's blocking connection. */
  connection: Redis;
  prefix: string;
  /** The queues this service consumes: each must have a handler, or nothing starts. */
  owns: readonly Owned[];
  handlers: JobHandlers<Owned>;
  /** Parallel jobs per worker: one number for all, or per queue (default 4). */
  concurrency?: number | Partial<Record<Owned, number>>;
  /** At most `max` jobs per `durationMs` for a queue (across every worker of that queue). */
  rateLimits?: Partial<Record<Owned, JobRateLimit>>;
  logger: Logger;
  metrics?: Metrics;
}

export interface JobRateLimit {
  max: number;
  durationMs: number;
}

export interface RunningWorkers {
  readonly workers: ReadonlyMap<QueueName, Worker>;
  /** Stops taking jobs and waits for active ones; jobs not started stay in their queues. */
  close(): Promise<void>;
}

export class WorkerConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerConfigurationError';
  }
}

/** Checks the declared queues against the handlers; throws naming each problem. */
export const checkWorkerHandlers = (owns: readonly string[], handlers: Record<string, unknown>): void => {
  const problems: string[] = [];
  for (const queue of owns) {
    if (!(QUEUE_NAMES as readonly string[]).includes(queue)) problems.push(`${queue} is not a known queue`);
    else if (typeof handlers[queue] !== 'function') problems.push(`no handler for queue ${queue}`);
  }
  for (const queue of Object.keys(handlers)) {
    if (!owns.includes(queue))
      problems.push(`a handler for queue ${queue}, which this service does not declare`);
  }
  if (new Set(owns).size !== owns.length) problems.push('a queue is declared twice');
  if (problems.length > 0)
    throw new WorkerConfigurationError(`Workers refused to start: ${problems.join('; ')}`);
};

const isFinalAttempt = (job: Job, error: unknown): boolean =>
  error instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);

/**
 * The errors a processor throws to park its job rather than fail it, recognised as BullMQ's
 * Worker recognises them (by name, or the rate-limit message): the job waits for its children,
 * is delayed, or goes back to wait. Not a failed attempt: attempts are not used up.
 */
const parkedOutcomeOf = (error: unknown): 'waiting-children' | 'delayed' | 'rate-limited' | undefined => {
  if (!(error instanceof Error)) return undefined;
  if (error.name === 'WaitingChildrenError') return 'waiting-children';
  if (error.name === 'DelayedError' || error.name === 'WaitingError') return 'delayed';
  if (error.message === RATE_LIMIT_ERROR || error.name === 'RateLimitError') return 'rate-limited';
  return undefined;
};

/**
 * Starts one BullMQ worker per owned queue. Each job's payload is parsed with the queue's schema
 * first: a bad payload fails the job at once (UnrecoverableError, no retries). Outcomes are
 * logged (phone numbers masked by the logger) and counted in the job metrics.
 */
export const startWorkers = async <Owned extends QueueName>(
  options: StartWorkersOptions<Owned>,
): Promise<RunningWorkers> => {
  checkWorkerHandlers(options.owns, options.handlers);
  const metrics = options.metrics === undefined ? undefined : jobMetrics(options.metrics);
  const workers = new Map<QueueName, Worker>();

  const processorFor = <Q extends Owned>(queue: Q) => {
    const handler = options.handlers[queue] as JobHandlerFn<Q>;
    const schema = jobDefinitions[queue].schema;
    return async (job: Job): Promise<JobResult<Q>> => {
      const parsed = schema.safeParse(job.data);
      if (!parsed.success) {
        const reason = `Invalid ${queue} payload: ${z.prettifyError(parsed.error)}`;
        options.logger.error({ queue, jobId: job.id }, reason);
        metrics?.failed.inc({ queue, final: 'true' });
        throw new UnrecoverableError(reason);
      }
      const endTimer = metrics?.duration.startTimer({ queue });
      try {
        const result = await handler(parsed.data as JobPayload<Q>, job);
        endTimer?.({ outcome: 'completed' });
        metrics?.processed.inc({ queue });
        options.logger.debug({ queue, jobId: job.id, attempt: job.attemptsMade + 1 }, 'job completed');
        return result;
      } catch (error) {
        const parked = parkedOutcomeOf(error);
        if (parked !== undefined) {
          endTimer?.({ outcome: parked });
          options.logger.debug({ queue, jobId: job.id, attempt: job.attemptsMade + 1 }, `job ${parked}`);
          throw error;
        }
        const final = isFinalAttempt(job, error);
        endTimer?.({ outcome: 'failed' });
        metrics?.failed.inc({ queue, final: String(final) });
        options.logger[final ? 'error' : 'warn'](
          { queue, jobId: job.id, attempt: job.attemptsMade + 1, final, err: error },
          final ? 'job failed' : 'job attempt failed; will retry',
        );
        throw error;
      }
    };
  };

  const concurrencyOf = (queue: Owned): number => {
    const { concurrency } = options;
    if (typeof concurrency === 'number') return concurrency;
    return concurrency?.[queue] ?? 4;
  };

  try {
    for (const queue of options.owns) {
      const worker = new Worker(queue, processorFor(queue), {
        connection: options.connection,
        prefix: options.prefix,
        concurrency: concurrencyOf(queue),
        autorun: true,
        ...(options.rateLimits?.[queue] === undefined
          ? {}
          : {
              limiter: { max: options.rateLimits[queue].max, duration: options.rateLimits[queue].durationMs },
            }),
      });
      // Without a listener an 'error' event would crash the process; connection errors are retried.
      worker.on('error', (error) => options.logger.error({ queue, err: error }, 'worker error'));
      workers.set(queue, worker);
    }
    await Promise.all([...workers.values()].map((worker) => worker.waitUntilReady()));
  } catch (error) {
    await Promise.allSettled([...workers.values()].map((worker) => worker.close(true)));
    throw error;
  }
  options.logger.info({ queues: options.owns }, 'workers started');

  let closing: Promise<void> | undefined;
  return {
    workers,
    close: () => {
      closing ??= Promise.all([...workers.values()].map((worker) => worker.close())).then(() => {
        options.logger.info({ queues: options.owns }, 'workers stopped');
      });
      return closing;
    },
  };
};
