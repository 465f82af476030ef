import { Module } from '@nestjs/common';
import {
  JobQueues,
  PlatformModule,
  type ServiceApp,
  WorkerConfigurationError,
  createServiceApp,
  securityHeaders,
} from '@sprout/platform';
import {
  type TestDatabase,
  type TestRedis,
  createTestDatabase,
  createTestRedis,
  securityHeaderGaps,
} from '@sprout/testing';
import { createApp } from '../src/app';
import { SERVICE_NAME, loadSurveySchedulerConfig } from '../src/config';
import { LIFECYCLE_EVERY_MS, LIFECYCLE_SCHEDULER_ID } from '../src/lifecycle/lifecycle.processor';

describe('survey-scheduler service', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  let service: ServiceApp;

  beforeAll(async () => {
    db = await createTestDatabase();
    redis = await createTestRedis();
    service = await createApp({
      databaseUrl: db.url,
      redisUrl: redis.url,
      bullmqPrefix: redis.prefix,
      logLevel: 'silent',
      port: 0,
    });
  });

  afterAll(async () => {
    await service?.close();
    await redis?.cleanup();
    await db?.drop();
  });

  it('defaults to port 3003', () => {
    expect(loadSurveySchedulerConfig({}, {}).port).toBe(3003);
  });

  it('answers liveness, readiness and metrics over HTTP', async () => {
    const live = await fetch(`${service.url}/health/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });

    const ready = await fetch(`${service.url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ok',
      checks: { database: { status: 'up' }, redis: { status: 'up' } },
    });

    const metrics = await fetch(`${service.url}/metrics`);
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toContain('process_resident_memory_bytes');
    expect(text).toContain(`service="${SERVICE_NAME}"`);
  });

  it('answers health, metrics, not-found and malformed URLs with the security-header policy', async () => {
    expect(await securityHeaderGaps(String(service.url), securityHeaders())).toEqual([]);
  });

  it('runs a worker on survey.lifecycle and schedules the run every minute', async () => {
    const queues = service.app.get(JobQueues);
    const schedulers = await queues.queue('survey.lifecycle').getJobSchedulers();
    expect(schedulers).toEqual([
      expect.objectContaining({ key: LIFECYCLE_SCHEDULER_ID, every: LIFECYCLE_EVERY_MS }),
    ]);
  });

  it('refuses to start when survey.lifecycle has no handler', async () => {
    const config = loadSurveySchedulerConfig({
      databaseUrl: db.url,
      redisUrl: redis.url,
      bullmqPrefix: redis.prefix,
      logLevel: 'silent',
    });
    @Module({
      imports: [
        PlatformModule.forRoot({ name: SERVICE_NAME, config, workers: { owns: ['survey.lifecycle'] } }),
      ],
    })
    class WithoutHandlers {}
    await expect(
      createServiceApp({ module: WithoutHandlers, name: SERVICE_NAME, config }),
    ).rejects.toBeInstanceOf(WorkerConfigurationError);
  });
});
