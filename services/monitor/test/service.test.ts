import { Module } from '@nestjs/common';
import {
  JobQueues,
  PlatformModule,
  WorkerConfigurationError,
  createServiceApp,
  loadConfig,
  securityHeaders,
} from '@sprout/platform';
import {
  type FakeOpenAI,
  expectProbesAnswer,
  securityHeaderGaps,
  startOnStores,
  useClosable,
} from '@sprout/testing';
import { createApp } from '../src/app';
import { SERVICE_NAME, monitorConfig } from '../src/config';
import { PREDICT_EVERY_MS, PREDICT_SCHEDULER_ID } from '../src/predictions/predictions.processor';
import { ProvidersModule } from '../src/providers/providers.module';
import { HEALTH_EVERY_MS, HEALTH_SCHEDULER_ID } from '../src/service-health/service-health.processor';
import { ServiceHealthModule } from '../src/service-health/service-health.module';
import { readServiceHealth } from '../src/state/monitor-state';
import { startProviderFakes } from './support/providers';

describe('monitor service', () => {
  let openai: FakeOpenAI;
  const h = useClosable(() =>
    startOnStores(async (stores) => {
      const fakes = await startProviderFakes(stores);
      openai = fakes.openai;
      return createApp({ ...fakes.config, port: 0 }, {});
    }),
  );

  it('defaults to port 3005', () => {
    expect(loadConfig(monitorConfig, {}).port).toBe(3005);
  });

  it('answers liveness, readiness and metrics over HTTP', async () => {
    await expectProbesAnswer(h.service.url, SERVICE_NAME);
  });

  it('answers health, metrics, not-found and malformed URLs with the security-header policy', async () => {
    expect(await securityHeaderGaps(String(h.service.url), securityHeaders())).toEqual([]);
  });

  it('schedules health checks every 30 s and predictions every minute', async () => {
    const queues = h.service.app.get(JobQueues);
    expect(await queues.queue('monitor.health').getJobSchedulers()).toEqual([
      expect.objectContaining({ key: HEALTH_SCHEDULER_ID, every: HEALTH_EVERY_MS }),
    ]);
    expect(await queues.queue('monitor.predict').getJobSchedulers()).toEqual([
      expect.objectContaining({ key: PREDICT_SCHEDULER_ID, every: PREDICT_EVERY_MS }),
    ]);
  });

  it('runs a forced health check through monitor.health and exposes it in Redis and metrics', async () => {
    const queues = h.service.app.get(JobQueues);
    const health = await queues.enqueueAndWait('monitor.health', {}, 20_000);

    expect(health.overallHealth).toBe('healthy');
    expect(Object.keys(health.services).sort()).toEqual(['ai_provider', 'database', 'redis', 'sms_provider']);
    expect(openai.requests.some((r) => r.path === '/v1/models')).toBe(true);
    const stored = await readServiceHealth(h.redis.connection, h.redis.prefix);
    expect(stored?.overallHealth).toBe('healthy');
    expect(Object.keys(stored?.services ?? {}).sort()).toEqual(Object.keys(health.services).sort());

    const metrics = await (await fetch(`${h.service.url}/metrics`)).text();
    expect(metrics).toMatch(/sprout_monitored_service_available\{[^}]*target="sms_provider"[^}]*\} 1/);
    // Every queue is looked at; the monitor's own queues have its workers.
    expect(stored?.queues['monitor.health']?.workers).toBeGreaterThanOrEqual(1);
    expect(stored?.queues['sms.inbound']).toMatchObject({ available: true, waiting: 0 });
    expect(metrics).toMatch(/sprout_queue_workers\{[^}]*queue="monitor.predict"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/sprout_queue_jobs\{[^}]*queue="sms.inbound"[^}]*state="waiting"[^}]*\} 0/);
  });

  it('runs a forced prediction through monitor.predict', async () => {
    const queues = h.service.app.get(JobQueues);
    const state = await queues.enqueueAndWait('monitor.predict', {}, 20_000);
    expect(state.trends.trends.errorRateHistory).toHaveLength(12);
    expect(state.system.metrics.resourceUtilization.heapUsed).toBeGreaterThan(0);
    expect(state.predictions.predictions).toEqual([]);
  });

  it('refuses to start when monitor.predict has no handler', async () => {
    const config = loadConfig(monitorConfig, {}, h.config);
    @Module({
      imports: [
        PlatformModule.forRoot({
          name: SERVICE_NAME,
          config,
          workers: { owns: ['monitor.health', 'monitor.predict'] },
        }),
        ProvidersModule,
        ServiceHealthModule,
      ],
    })
    class HealthOnly {}
    await expect(createServiceApp({ module: HealthOnly, name: SERVICE_NAME, config })).rejects.toBeInstanceOf(
      WorkerConfigurationError,
    );
  });
});
