import { Module } from '@nestjs/common';
import { OfflineChatModel } from '@sprout/llm';
import { plainResponder } from './plain-responder';
import { RepliesProcessor } from './replies.processor';
import { CHAT_MODEL, RepliesService } from './replies.service';

@Module({
  providers: [
    { provide: CHAT_MODEL, useFactory: () => new OfflineChatModel(plainResponder) },
    RepliesService,
    RepliesProcessor,
  ],
})
export class RepliesModule {}
