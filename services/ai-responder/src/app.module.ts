import { type DynamicModule, Module } from '@nestjs/common';
import { PlatformModule } from '@sprout/platform';
import { type AiResponderConfig, SERVICE_NAME } from './config';
import { RepliesModule } from './replies/replies.module';

@Module({})
export class AppModule {
  static forRoot(config: AiResponderConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({ name: SERVICE_NAME, config, workers: { owns: ['sms.inbound'] } }),
        RepliesModule,
      ],
    };
  }
}
