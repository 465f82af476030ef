import { Module, type Provider } from '@nestjs/common';
import { SpendLedger } from '@sprout/domain';
import { CONFIG, Metrics, spendLedgerOptions } from '@sprout/platform';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { type ImageProcessorConfig } from '../config';
import { ImageAnalysisProcessor } from './image-analysis.processor';
import { ImageAnalysisService } from './image-analysis.service';
import { ImageSource } from './image-source';
import { visionModelProvider } from './vision-model';

/** The ledger of paid calls: every vision model call is reserved against the daily spending limit. */
const spendLedgerProvider: Provider = {
  provide: SpendLedger,
  inject: [DataSource, Redis, CONFIG, Metrics],
  useFactory: (dataSource: DataSource, redis: Redis, config: ImageProcessorConfig, metrics: Metrics) =>
    new SpendLedger(dataSource, spendLedgerOptions({ config, metrics, redis })),
};

/** MMS photos: fetched safely, described by the vision model (or the offline analyser), recorded on the message (queue image.analyze). */
@Module({
  providers: [
    ImageSource,
    visionModelProvider,
    spendLedgerProvider,
    ImageAnalysisService,
    ImageAnalysisProcessor,
  ],
  exports: [ImageAnalysisService],
})
export class ImageAnalysisModule {}
