import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, Metrics } from '@sprout/platform';
import { SmsSendError } from '@sprout/sms';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { type MonitorConfig } from '../config';
import { ProviderClients } from '../providers/provider-clients';
import {
  type CheckOutcome,
  type MonitoredServiceHealth,
  MONITORED_SERVICES,
  type MonitoredService,
  recordHealthChecks,
} from '../state/monitor-state';

/**
 * A message sid that never exists. Fetching it is the lightest authenticated Twilio call: Twilio
 * (and the sandbox) check the credentials first and then answer 404, which proves both the API
 * and the account work without sending anything.
 */
export const SMS_PROBE_SID = `SM${'0'.repeat(32)}`;

class CheckTimeoutError extends Error {}

const withTimeout = async <T>(work: Promise<T>, timeoutMs: number, label: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new CheckTimeoutError(`${label} did not answer within ${timeoutMs} ms`)),
          timeoutMs,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
};

@Injectable()
export class ServiceHealthService {
  private readonly availableGauge;
  private readonly failuresGauge;

  constructor(
    private readonly dataSource: DataSource,
    private readonly redis: Redis,
    private readonly providers: ProviderClients,
    @Inject(CONFIG) private readonly config: MonitorConfig,
    metrics: Metrics,
  ) {
    this.availableGauge = metrics.gauge(
      'sprout_monitored_service_available',
      'Whether a dependency counts as available (1) or not (0)',
      ['target'] as const,
    );
    this.failuresGauge = metrics.gauge(
      'sprout_monitored_service_consecutive_failures',
      'Consecutive failed health checks of a dependency',
      ['target'] as const,
    );
  }

  /** Checks every dependency, records the outcome in Redis and answers the spec's service health. */
  async checkAll(): Promise<MonitoredServiceHealth> {
    const outcomes = await Promise.all(MONITORED_SERVICES.map((service) => this.check(service)));
    const health = await recordHealthChecks(this.redis, this.config.bullmqPrefix, outcomes);
    for (const service of MONITORED_SERVICES) {
      const state = health.services[service];
      if (state === undefined) continue;
      this.availableGauge.set({ target: service }, state.available ? 1 : 0);
      this.failuresGauge.set({ target: service }, state.consecutiveFailures);
    }
    return health;
  }

  async check(service: MonitoredService): Promise<CheckOutcome> {
    const startedAt = Date.now();
    try {
      const detail = await withTimeout(this.probe(service), this.config.checkTimeoutMs, service);
      return {
        service,
        ok: true,
        checkedAt: new Date(),
        latencyMs: Date.now() - startedAt,
        error: null,
        detail,
      };
    } catch (error) {
      return {
        service,
        ok: false,
        checkedAt: new Date(),
        latencyMs: Date.now() - startedAt,
        error: error instanceof Error ? error.message : String(error),
        detail: null,
      };
    }
  }

  /** Resolves with a short description of what answered; rejects when the dependency failed. */
  private async probe(service: MonitoredService): Promise<string> {
    switch (service) {
      case 'database':
        await this.dataSource.query('SELECT 1');
        return 'postgres';
      case 'redis':
        await this.redis.ping();
        return 'redis';
      case 'ai_provider': {
        // Without a key every answer comes from the offline advisor, which is always there.
        if (this.providers.openAi === null) return 'offline advisor (no OpenAI key)';
        const models = await this.providers.openAi.listModels();
        return `openai (${models.length} models)`;
      }
      case 'sms_provider':
        try {
          await this.providers.sms.fetchStatus(SMS_PROBE_SID);
        } catch (error) {
          if (!(error instanceof SmsSendError && error.status === 404)) throw error;
        }
        return `twilio at ${this.providers.smsApiOrigin}`;
    }
  }
}
