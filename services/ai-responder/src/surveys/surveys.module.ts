import { Module } from '@nestjs/common';
import { SurveysService } from './surveys.service';

/** Due survey links appended to replies. */
@Module({ providers: [SurveysService], exports: [SurveysService] })
export class SurveysModule {}
