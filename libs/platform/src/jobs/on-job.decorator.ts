import type { QueueName } from '@sprout/contracts';
import type { Job } from 'bullmq';
import type { JobHandlerFn } from './worker-host';

export const ON_JOB_METADATA = 'sprout:on-job';

/**
 * Marks a provider method as the handler of a queue's jobs. The method's payload parameter must
 * accept the queue's payload type, and it must answer the queue's result type (checked when
 * compiling):
 *
 *   @OnJob('sms.outbound')
 *   async send(payload: JobPayload<'sms.outbound'>, job: Job): Promise<JobResult<'sms.outbound'>> { ... }
 *
 * The service's PlatformModule declares which queues it owns; a declared queue without a handler
 * (or a handler for an undeclared queue) stops the service at start-up.
 */
export const OnJob =
  <Q extends QueueName>(queue: Q) =>
  <T extends JobHandlerFn<Q>>(
    _target: object,
    _propertyKey: string | symbol,
    descriptor: TypedPropertyDescriptor<T>,
  ): TypedPropertyDescriptor<T> => {
    if (descriptor.value === undefined) throw new Error(`@OnJob('${queue}') must decorate a method`);
    Reflect.defineMetadata(ON_JOB_METADATA, queue, descriptor.value);
    return descriptor;
  };

export type { Job };
