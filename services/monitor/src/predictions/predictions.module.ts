import { Module } from '@nestjs/common';
import { PredictionsProcessor } from './predictions.processor';
import { PredictionsService } from './predictions.service';

/** Trends, predictions and system status of the last hour (queue monitor.predict). */
@Module({
  providers: [PredictionsService, PredictionsProcessor],
  exports: [PredictionsService],
})
export class PredictionsModule {}
