import {
  QUEUE_NAMES,
  jobDefinitions,
  type JobPayload,
  type JobPayloadInput,
  type JobResult,
  type QueueName,
} from '@sprout/contracts';
import { type Job, type JobsOptions, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { type JobMetrics } from '../metrics/metrics';

export interface JobQueuesOptions {
  /** A shared ioredis client (maxRetriesPerRequest null, no keyPrefix); the owner closes it. */
  connection: Redis;
  /** BullMQ key prefix (BULLMQ_PREFIX; tests use their own). */
  prefix: string;
  metrics?: JobMetrics;
}

export interface EnqueueOptions {
  /** Milliseconds before the job may run. */
  delay?: number;
}

export interface EnqueueResult {
  /**
   * The BullMQ job id: the custom id when the queue has one. Adding a job whose custom id or
   * deduplication key is already taken changes nothing and answers the existing id.
   */
  jobId: string;
}

export interface ChildJobOptions {
  /** When the child fails for good, the parent runs anyway (without its result) instead of failing. */
  ignoreDependencyOnFailure?: boolean;
}

export interface ChildJobResult {
  jobId: string;
  /**
   * added: the parent now waits for it (also when the job already existed and was still pending).
   * finished: a retained job with this id has already completed or failed, so it is not attached
   * (a failed one would be a dependency that never resolves).
   * other-parent: the job is the child of another job that still exists; BullMQ keeps it there.
   */
  outcome: 'added' | 'finished' | 'other-parent';
}

/** A job answered something its queue's result schema refuses (a worker of another version?). */
export class InvalidJobResultError extends Error {
  constructor(queue: QueueName, jobId: string, error: z.ZodError) {
    super(`Job ${jobId} on ${queue} answered an invalid result: ${z.prettifyError(error)}`);
    this.name = 'InvalidJobResultError';
  }
}

export class JobTimeoutError extends Error {
  constructor(queue: QueueName, jobId: string, timeoutMs: number) {
    super(`Job ${jobId} on ${queue} did not finish within ${timeoutMs} ms`);
    this.name = 'JobTimeoutError';
  }
}

/** The job options of a queue's definition: custom id, attempts, backoff and retention. */
export const jobOptionsFor = <Q extends QueueName>(
  queue: Q,
  payload: JobPayload<Q>,
  delay?: number,
): JobsOptions => {
  const definition = jobDefinitions[queue];
  const options: JobsOptions = {
    attempts: definition.attempts,
    backoff: { type: 'exponential', delay: definition.backoffMs },
    removeOnComplete: {
      age: definition.retention.completedAgeSeconds,
      count: definition.retention.completedCount,
    },
    removeOnFail: { age: definition.retention.failedAgeSeconds, count: definition.retention.failedCount },
  };
  if (definition.jobId !== undefined) options.jobId = definition.jobId(payload);
  if (definition.deduplicate !== undefined) {
    options.deduplication = {
      id: definition.deduplicate.id(payload),
      ...(definition.deduplicate.reschedule ? { reschedule: true } : {}),
    };
  }
  if (delay !== undefined && delay > 0) options.delay = delay;
  return options;
};

/**
 * The one way to add jobs: one BullMQ Queue per queue name (created on first use), payloads parsed
 * with the queue's schema before they reach Redis, options from the queue's definition.
 */
export class JobQueues {
  private readonly queues = new Map<QueueName, Queue>();
  private readonly events = new Map<QueueName, Promise<QueueEvents>>();

  constructor(private readonly options: JobQueuesOptions) {}

  get prefix(): string {
    return this.options.prefix;
  }

  /** The BullMQ queue itself, for counts and inspection (health page, tests). */
  queue(name: QueueName): Queue {
    let queue = this.queues.get(name);
    if (queue === undefined) {
      queue = new Queue(name, { connection: this.options.connection, prefix: this.options.prefix });
      this.queues.set(name, queue);
    }
    return queue;
  }

  async enqueue<Q extends QueueName>(
    name: Q,
    payload: JobPayloadInput<Q>,
    options: EnqueueOptions = {},
  ): Promise<EnqueueResult> {
    return this.add(name, payload, options);
  }

  /**
   * Adds a job and waits for its result (QueueEvents), for the few HTTP answers that need it. The
   * result is parsed with the queue's result schema. Rejects with the job's failure, with a
   * JobTimeoutError after `timeoutMs`, or with an InvalidJobResultError.
   */
  async enqueueAndWait<Q extends QueueName>(
    name: Q,
    payload: JobPayloadInput<Q>,
    timeoutMs: number,
  ): Promise<JobResult<Q>> {
    const events = await this.queueEvents(name);
    const { jobId } = await this.add(name, payload, {});
    const job = await this.queue(name).getJob(jobId);
    if (job === undefined) {
      // Removed already: it finished and fell out of retention before we looked.
      throw new Error(`Job ${jobId} on ${name} is no longer available`);
    }
    let value: unknown;
    try {
      value = await job.waitUntilFinished(events, timeoutMs);
    } catch (error) {
      if (error instanceof Error && /timed out before finishing/.test(error.message)) {
        throw new JobTimeoutError(name, jobId, timeoutMs);
      }
      throw error;
    }
    const result = jobDefinitions[name].result.safeParse(value);
    if (!result.success) throw new InvalidJobResultError(name, jobId, result.error);
    return result.data as JobResult<Q>;
  }

  /**
   * Adds a job as a child of `parent`, a job being processed (a BullMQ flow), with the same
   * payload parsing, job id, attempts, retention and metrics as `enqueue`. The parent then calls
   * `job.moveToWaitingChildren(token)` and, when that answers true, throws WaitingChildrenError:
   * BullMQ runs it again once its children have finished (the worker host does not count that as
   * a failed attempt).
   */
  async addChild<Q extends QueueName>(
    parent: Job,
    name: Q,
    payload: JobPayloadInput<Q>,
    options: ChildJobOptions = {},
  ): Promise<ChildJobResult> {
    if (parent.id === undefined) throw new Error(`A child of ${parent.queueName} needs a parent job id`);
    const parsed = jobDefinitions[name].schema.parse(payload) as JobPayload<Q>;
    const jobOptions = jobOptionsFor(name, parsed);
    const queue = this.queue(name);
    if (jobOptions.jobId !== undefined) {
      const existing = await queue.getJob(jobOptions.jobId);
      const state = await existing?.getState();
      if (state === 'completed' || state === 'failed')
        return { jobId: jobOptions.jobId, outcome: 'finished' };
    }
    try {
      const job: Job = await queue.add(name, parsed, {
        ...jobOptions,
        parent: { id: parent.id, queue: parent.queueQualifiedName },
        ...(options.ignoreDependencyOnFailure === true ? { ignoreDependencyOnFailure: true } : {}),
      });
      this.options.metrics?.enqueued.inc({ queue: name });
      return { jobId: job.id ?? jobOptions.jobId ?? '', outcome: 'added' };
    } catch (error) {
      // BullMQ's ParentJobCannotBeReplaced (-7): the existing job stays with its other parent.
      if (
        jobOptions.jobId !== undefined &&
        error instanceof Error &&
        /cannot be replaced/.test(error.message)
      )
        return { jobId: jobOptions.jobId, outcome: 'other-parent' };
      throw error;
    }
  }

  /** Repeats a job every `everyMs` (BullMQ job scheduler); calling again updates it. */
  async schedule<Q extends QueueName>(
    name: Q,
    schedulerId: string,
    everyMs: number,
    payload: JobPayloadInput<Q>,
  ): Promise<void> {
    const parsed = jobDefinitions[name].schema.parse(payload) as JobPayload<Q>;
    const { jobId: _jobId, deduplication: _dedupe, delay: _delay, ...template } = jobOptionsFor(name, parsed);
    await this.queue(name).upsertJobScheduler(
      schedulerId,
      { every: everyMs },
      { name, data: parsed, opts: template },
    );
  }

  /** Counts per state for every queue (waiting, active, delayed, failed, completed). */
  async counts(): Promise<Record<QueueName, Record<string, number>>> {
    const entries = await Promise.all(
      QUEUE_NAMES.map(
        async (name) =>
          [
            name,
            await this.queue(name).getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed'),
          ] as const,
      ),
    );
    return Object.fromEntries(entries) as Record<QueueName, Record<string, number>>;
  }

  /** Closes queues and event listeners; the shared connection stays open for its owner. */
  async close(): Promise<void> {
    const events = await Promise.allSettled([...this.events.values()]);
    await Promise.allSettled(
      events.flatMap((result) => (result.status === 'fulfilled' ? [result.value.close()] : [])),
    );
    await Promise.allSettled([...this.queues.values()].map((queue) => queue.close()));
    this.events.clear();
    this.queues.clear();
  }

  private async add<Q extends QueueName>(
    name: Q,
    payload: JobPayloadInput<Q>,
    options: EnqueueOptions,
  ): Promise<EnqueueResult> {
    const parsed = jobDefinitions[name].schema.parse(payload) as JobPayload<Q>;
    const jobOptions = jobOptionsFor(name, parsed, options.delay);
    const queue = this.queue(name);
    const job: Job = await queue.add(name, parsed, jobOptions);
    this.options.metrics?.enqueued.inc({ queue: name });
    return { jobId: job.id ?? jobOptions.jobId ?? '' };
  }

  private queueEvents(name: QueueName): Promise<QueueEvents> {
    let events = this.events.get(name);
    if (events === undefined) {
      const queueEvents = new QueueEvents(name, {
        connection: this.options.connection,
        prefix: this.options.prefix,
      });
      events = queueEvents.waitUntilReady().then(() => queueEvents);
      this.events.set(name, events);
    }
    return events;
  }
}
