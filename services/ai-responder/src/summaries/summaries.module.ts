import { Module } from '@nestjs/common';
import { AnsweringModule } from '../answering/answering.module';
import { SummariesProcessor } from './summaries.processor';
import { SummariesService } from './summaries.service';

/** Conversation summaries once a conversation goes idle (queue conversation.summarize). */
@Module({
  imports: [AnsweringModule],
  providers: [SummariesService, SummariesProcessor],
  exports: [SummariesService],
})
export class SummariesModule {}
