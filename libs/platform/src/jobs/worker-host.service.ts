import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import type { QueueName } from '@sprout/contracts';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { Metrics } from '../metrics/metrics';
import { CONFIG, LOGGER, PLATFORM_OPTIONS } from '../nest/tokens';
import type { PlatformModuleOptions } from '../nest/platform-options';
import { ON_JOB_METADATA } from './on-job.decorator';
import {
  type JobHandlerFn,
  type JobHandlers,
  type RunningWorkers,
  WorkerConfigurationError,
  startWorkers,
} from './worker-host';

/**
 * Finds the @OnJob methods of every provider once the app is wired, and starts one worker per
 * queue the service owns. Closed by PlatformLifecycle on shutdown (after HTTP, before databases).
 */
@Injectable()
export class WorkerHost implements OnApplicationBootstrap {
  private running: RunningWorkers | undefined;

  constructor(
    @Inject(PLATFORM_OPTIONS) private readonly options: PlatformModuleOptions,
    @Inject(CONFIG) private readonly config: { bullmqPrefix: string },
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly redis: Redis,
    private readonly metrics: Metrics,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const owns = this.options.workers?.owns ?? [];
    const handlers = this.discoverHandlers();
    if (owns.length === 0 && handlers.size === 0) return;
    this.running = await startWorkers({
      connection: this.redis,
      prefix: this.config.bullmqPrefix,
      owns,
      handlers: Object.fromEntries(handlers) as JobHandlers<QueueName>,
      concurrency: this.options.workers?.concurrency,
      rateLimits: this.options.workers?.rateLimits,
      logger: this.logger,
      metrics: this.metrics,
    });
  }

  /** The running workers (empty when the service owns no queue). */
  get workers(): RunningWorkers['workers'] {
    return this.running?.workers ?? new Map();
  }

  async close(): Promise<void> {
    await this.running?.close();
    this.running = undefined;
  }

  private discoverHandlers(): Map<QueueName, JobHandlerFn<QueueName>> {
    const handlers = new Map<QueueName, JobHandlerFn<QueueName>>();
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (instance === null || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic()) continue;
      const prototype = Object.getPrototypeOf(instance) as object | null;
      if (prototype === null) continue;
      for (const methodName of this.scanner.getAllMethodNames(prototype)) {
        const method = (instance as Record<string, unknown>)[methodName];
        if (typeof method !== 'function') continue;
        const queue = Reflect.getMetadata(ON_JOB_METADATA, method) as QueueName | undefined;
        if (queue === undefined) continue;
        if (handlers.has(queue)) {
          throw new WorkerConfigurationError(`Workers refused to start: two @OnJob('${queue}') handlers`);
        }
        handlers.set(queue, (method as JobHandlerFn<QueueName>).bind(instance));
      }
    }
    return handlers;
  }
}
