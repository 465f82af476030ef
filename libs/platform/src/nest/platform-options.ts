import type { QueueName } from '@sprout/contracts';
import type { JobRateLimit } from '../jobs/worker-host';
import type { Config } from '../config/config';
import type { coreConfigFields } from '../config/fields';

/** The configuration every service has (its own definition spreads `coreConfigFields`). */
export type CoreConfig = Config<typeof coreConfigFields>;

export interface PlatformModuleOptions {
  /** Service name: logs, metrics label, Postgres application_name. */
  name: string;
  /** The service's loaded configuration; CONFIG injects this object. */
  config: CoreConfig;
  /** Queues this service consumes; each needs exactly one @OnJob handler. */
  workers?: {
    owns: readonly QueueName[];
    concurrency?: number | Partial<Record<QueueName, number>>;
    rateLimits?: Partial<Record<QueueName, JobRateLimit>>;
  };
}
