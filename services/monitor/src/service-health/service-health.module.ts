import { Module } from '@nestjs/common';
import { ServiceHealthProcessor } from './service-health.processor';
import { ServiceHealthService } from './service-health.service';

/** Health checks of Postgres, Redis, the AI provider and the SMS provider (queue monitor.health). */
@Module({
  providers: [ServiceHealthService, ServiceHealthProcessor],
  exports: [ServiceHealthService],
})
export class ServiceHealthModule {}
