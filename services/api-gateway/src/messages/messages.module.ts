import { Module } from '@nestjs/common';
import { MessagesController } from './messages.controller';
import { MessagesQueryService } from './messages.service';
import { AuthModule } from '../auth/auth.module';
import { ConversationsExportService } from './conversations-export.service';
import { MessageStatsService } from './message-stats.service';

/** The Messages and Conversations screen (and the user panel's conversations): lists, messages, cards. */
@Module({
  imports: [AuthModule],
  controllers: [MessagesController],
  providers: [MessagesQueryService, MessageStatsService, ConversationsExportService],
})
export class MessagesModule {}
