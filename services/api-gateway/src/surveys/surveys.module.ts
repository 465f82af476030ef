import { Module } from '@nestjs/common';
import { SurveysController } from './surveys.controller';
import { SurveysService } from './surveys.service';

/** Survey campaigns: the list, deliveries, creation, pause and resume, and the survey URL. */
@Module({
  controllers: [SurveysController],
  providers: [SurveysService],
})
export class SurveysModule {}
