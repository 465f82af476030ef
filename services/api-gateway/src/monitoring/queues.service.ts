import {
  ConflictException,
  Inject,
  Injectable,
  NotFoundException,
  ServiceUnavailableException,
} from '@nestjs/common';
import {
  FAILED_JOBS_SHOWN,
  type FailedJob,
  JOB_NOT_FAILED,
  JOB_NOT_FOUND,
  QUEUE_NAMES,
  QUEUE_NOT_FOUND,
  type QueueJobAction,
  type QueueJobActionResponse,
  type QueueName,
  type QueueStatus,
  type QueuesResponse,
  isQueueName,
} from '@sprout/contracts';
import { JobQueues, LOGGER } from '@sprout/platform';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { REDIS_UNREACHABLE, redisIsDown } from './monitor-state.reader';

/** A BullMQ job, as JobQueues' queues answer it. */
type Job = NonNullable<Awaited<ReturnType<ReturnType<JobQueues['queue']>['getJob']>>>;

const toFailedJob = (job: Job): FailedJob => ({
  id: job.id ?? '',
  data: job.data !== null && typeof job.data === 'object' ? (job.data as Record<string, unknown>) : {},
  failedReason: job.failedReason || 'Unknown error',
  attemptsMade: job.attemptsMade,
  maxAttempts: job.opts.attempts ?? 1,
  enqueuedAt: new Date(job.timestamp).toISOString(),
  failedAt: job.finishedOn === undefined ? null : new Date(job.finishedOn).toISOString(),
});

/** Who asked for an admin action, for the log. */
export interface ActingAdmin {
  username: string;
  adminUserId: string;
}

/** The Queues panel of System Health: live BullMQ counts, failed jobs, retry and remove. */
@Injectable()
export class QueuesService {
  constructor(
    private readonly queues: JobQueues,
    private readonly redis: Redis,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async list(now: Date = new Date()): Promise<QueuesResponse> {
    // BullMQ's commands would wait for Redis to come back: say so at once instead.
    if (redisIsDown(this.redis)) throw new ServiceUnavailableException(REDIS_UNREACHABLE);
    const queues = await Promise.all(QUEUE_NAMES.map((name) => this.status(name)));
    return { queues, timestamp: now.toISOString() };
  }

  /** Puts a failed job back in its queue. Logged with the admin who asked. */
  retry(queue: string, jobId: string, admin: ActingAdmin): Promise<QueueJobActionResponse> {
    return this.act('retry', queue, jobId, admin, (job) => job.retry('failed'));
  }

  /** Deletes a failed job for good. Logged with the admin who asked. */
  remove(queue: string, jobId: string, admin: ActingAdmin): Promise<QueueJobActionResponse> {
    return this.act('remove', queue, jobId, admin, (job) => job.remove());
  }

  private async status(name: QueueName): Promise<QueueStatus> {
    const queue = this.queues.queue(name);
    const [counts, workers, failed] = await Promise.all([
      queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed'),
      queue.getWorkersCount(),
      queue.getFailed(0, FAILED_JOBS_SHOWN - 1),
    ]);
    return {
      queue: name,
      waiting: counts.waiting ?? 0,
      active: counts.active ?? 0,
      delayed: counts.delayed ?? 0,
      completed: counts.completed ?? 0,
      failed: counts.failed ?? 0,
      workers,
      // A job can vanish between the listing and its read.
      failedJobs: failed.filter((job): job is Job => job !== undefined && job !== null).map(toFailedJob),
    };
  }

  private async act(
    action: QueueJobAction,
    queue: string,
    jobId: string,
    admin: ActingAdmin,
    apply: (job: Job) => Promise<unknown>,
  ): Promise<QueueJobActionResponse> {
    if (!isQueueName(queue)) throw new NotFoundException(QUEUE_NOT_FOUND);
    const job = await this.queues.queue(queue).getJob(jobId);
    if (job === undefined) throw new NotFoundException(JOB_NOT_FOUND);
    if ((await job.getState()) !== 'failed') throw new ConflictException(JOB_NOT_FAILED);
    await apply(job);
    this.logger.info(
      {
        admin: admin.username,
        adminUserId: admin.adminUserId,
        action,
        queue,
        jobId,
        failedReason: job.failedReason,
        attemptsMade: job.attemptsMade,
      },
      action === 'retry' ? 'Admin retried a failed job' : 'Admin removed a failed job',
    );
    return { success: true, action, queue, jobId };
  }
}
