import { type DynamicModule, Module } from '@nestjs/common';
import { PlatformModule } from '@sprout/platform';
import { type MonitorConfig, SERVICE_NAME } from './config';
import { PredictionsModule } from './predictions/predictions.module';
import { ProvidersModule } from './providers/providers.module';
import { ServiceHealthModule } from './service-health/service-health.module';

@Module({})
export class AppModule {
  static forRoot(config: MonitorConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        // One check round and one prediction at a time: each reads and writes shared Redis state.
        PlatformModule.forRoot({
          name: SERVICE_NAME,
          config,
          workers: { owns: ['monitor.health', 'monitor.predict'], concurrency: 1 },
        }),
        ProvidersModule,
        ServiceHealthModule,
        PredictionsModule,
      ],
    };
  }
}
