import { Module } from '@nestjs/common';
import { AnsweringModule } from '../answering/answering.module';
import { LocationModule } from '../location/location.module';
import { MediaModule } from '../media/media.module';
import { ProfileModule } from '../profile/profile.module';
import { SummariesModule } from '../summaries/summaries.module';
import { PipelineProcessor } from './pipeline.processor';
import { PipelineService } from './pipeline.service';
import { SenderLimits } from './sender-limits';

/** The reply pipeline: consumes sms.inbound and orchestrates the capability modules. */
@Module({
  imports: [AnsweringModule, LocationModule, MediaModule, ProfileModule, SummariesModule],
  providers: [PipelineService, PipelineProcessor, SenderLimits],
  exports: [PipelineService],
})
export class PipelineModule {}
