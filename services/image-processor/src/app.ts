import { defineWorkerService } from '@sprout/platform';
import { SERVICE_NAME, imageProcessorConfig } from './config';
import { ImageAnalysisModule } from './image-analysis/image-analysis.module';

/** The image-processor: analyses the photos users text in. */
export const imageProcessor = defineWorkerService({
  name: SERVICE_NAME,
  config: imageProcessorConfig,
  workers: (config) => ({ owns: ['image.analyze'], concurrency: config.imageAnalyzeConcurrency }),
  imports: [ImageAnalysisModule],
});

export const { createApp } = imageProcessor;
