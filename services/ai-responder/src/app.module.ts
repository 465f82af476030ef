import { type DynamicModule, Module } from '@nestjs/common';
import { PlatformModule } from '@sprout/platform';
import { type AiResponderConfig, SERVICE_NAME } from './config';
import { PipelineModule } from './pipeline/pipeline.module';

@Module({})
export class AppModule {
  static forRoot(config: AiResponderConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({
          name: SERVICE_NAME,
          config,
          workers: {
            owns: ['sms.inbound', 'conversation.summarize'],
            concurrency: {
              'sms.inbound': config.smsInboundConcurrency,
              'conversation.summarize': config.summarizeConcurrency,
            },
          },
        }),
        PipelineModule,
      ],
    };
  }
}
