import { Module } from '@nestjs/common';
import { LifecycleProcessor } from './lifecycle.processor';
import { LifecycleService } from './lifecycle.service';

/** Campaign status by date, audience targeting and delivery bookkeeping (queue survey.lifecycle). */
@Module({
  providers: [LifecycleService, LifecycleProcessor],
  exports: [LifecycleService],
})
export class LifecycleModule {}
