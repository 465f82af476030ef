import { Module } from '@nestjs/common';
import {
  JobQueues,
  PlatformModule,
  WorkerConfigurationError,
  createServiceApp,
  securityHeaders,
} from '@sprout/platform';
import { expectProbesAnswer, securityHeaderGaps } from '@sprout/testing';
import { SERVICE_NAME, loadSurveySchedulerConfig } from '../src/config';
import { LIFECYCLE_EVERY_MS, LIFECYCLE_SCHEDULER_ID } from '../src/lifecycle/lifecycle.processor';
import { useScheduler } from './support/scheduler';

describe('survey-scheduler service', () => {
  const h = useScheduler();

  it('defaults to port 3003', () => {
    expect(loadSurveySchedulerConfig({}, {}).port).toBe(3003);
  });

  it('answers liveness, readiness and metrics over HTTP', async () => {
    await expectProbesAnswer(h.service.url, SERVICE_NAME);
  });

  it('answers health, metrics, not-found and malformed URLs with the security-header policy', async () => {
    expect(await securityHeaderGaps(String(h.service.url), securityHeaders())).toEqual([]);
  });

  it('runs a worker on survey.lifecycle and schedules the run every minute', async () => {
    const queues = h.service.app.get(JobQueues);
    const schedulers = await queues.queue('survey.lifecycle').getJobSchedulers();
    expect(schedulers).toEqual([
      expect.objectContaining({ key: LIFECYCLE_SCHEDULER_ID, every: LIFECYCLE_EVERY_MS }),
    ]);
  });

  it('refuses to start when survey.lifecycle has no handler', async () => {
    const config = loadSurveySchedulerConfig(h.config);
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
