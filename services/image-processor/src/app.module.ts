import { type DynamicModule, Module } from '@nestjs/common';
import { PlatformModule } from '@sprout/platform';
import { type ImageProcessorConfig, SERVICE_NAME } from './config';
import { ImageAnalysisModule } from './image-analysis/image-analysis.module';

@Module({})
export class AppModule {
  static forRoot(config: ImageProcessorConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({
          name: SERVICE_NAME,
          config,
          workers: { owns: ['image.analyze'], concurrency: config.imageAnalyzeConcurrency },
        }),
        ImageAnalysisModule,
      ],
    };
  }
}
