import { defineWorkerService } from '@sprout/platform';
import { SERVICE_NAME, monitorConfig } from './config';
import { PredictionsModule } from './predictions/predictions.module';
import { ProvidersModule } from './providers/providers.module';
import { ServiceHealthModule } from './service-health/service-health.module';

/** The monitor: checks the services' and providers' health and predicts trouble. */
export const monitor = defineWorkerService({
  name: SERVICE_NAME,
  config: monitorConfig,
  // One check round and one prediction at a time: each reads and writes shared Redis state.
  workers: () => ({ owns: ['monitor.health', 'monitor.predict'], concurrency: 1 }),
  imports: [ProvidersModule, ServiceHealthModule, PredictionsModule],
});

export const { createApp } = monitor;
