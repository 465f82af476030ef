import { defineWorkerService } from '@sprout/platform';
import { CalendarModule } from './calendar/calendar.module';
import { SERVICE_NAME, surveySchedulerConfig } from './config';
import { LifecycleModule } from './lifecycle/lifecycle.module';

/** The survey-scheduler: survey lifecycles and the garden calendar's texts. */
export const surveyScheduler = defineWorkerService({
  name: SERVICE_NAME,
  config: surveySchedulerConfig,
  // One lifecycle run at a time per process by default: runs are idempotent, but need not overlap.
  workers: (config) => ({
    owns: ['survey.lifecycle', 'calendar.plan', 'calendar.send', 'calendar.weather'],
    concurrency: config.surveyLifecycleConcurrency,
  }),
  imports: [LifecycleModule, CalendarModule],
});

export const { createApp } = surveyScheduler;
