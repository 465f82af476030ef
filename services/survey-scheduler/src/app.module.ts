import { type DynamicModule, Module } from '@nestjs/common';
import { PlatformModule } from '@sprout/platform';
import { SERVICE_NAME, type SurveySchedulerConfig } from './config';
import { CalendarModule } from './calendar/calendar.module';
import { LifecycleModule } from './lifecycle/lifecycle.module';

@Module({})
export class AppModule {
  static forRoot(config: SurveySchedulerConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        // One lifecycle run at a time per process by default: runs are idempotent, but need not overlap.
        PlatformModule.forRoot({
          name: SERVICE_NAME,
          config,
          workers: {
            owns: ['survey.lifecycle', 'calendar.plan', 'calendar.send', 'calendar.weather'],
            concurrency: config.surveyLifecycleConcurrency,
          },
        }),
        LifecycleModule,
        CalendarModule,
      ],
    };
  }
}
