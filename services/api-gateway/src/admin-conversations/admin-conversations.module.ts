import { Module } from '@nestjs/common';
import { AdminConversationsController } from './admin-conversations.controller';
import { AdminConversationsQueryService } from './admin-conversations.service';
import { MessageStatsService } from './message-stats.service';

/** The Messages and Conversations screen (and the user panel's conversations): lists, messages, cards. */
@Module({
  controllers: [AdminConversationsController],
  providers: [AdminConversationsQueryService, MessageStatsService],
})
export class AdminConversationsModule {}
