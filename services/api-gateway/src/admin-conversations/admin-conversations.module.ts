import { Module } from '@nestjs/common';
import { AdminConversationsController } from './admin-conversations.controller';
import { AdminConversationsQueryService } from './admin-conversations.service';
import { AuthModule } from '../auth/auth.module';
import { ConversationsExportService } from './conversations-export.service';
import { MessageStatsService } from './message-stats.service';

/** The Messages and Conversations screen (and the user panel's conversations): lists, messages, cards. */
@Module({
  imports: [AuthModule],
  controllers: [AdminConversationsController],
  providers: [AdminConversationsQueryService, MessageStatsService, ConversationsExportService],
})
export class AdminConversationsModule {}
