import { Module } from '@nestjs/common';
import { adviseOffline } from '@sprout/gardening';
import { type ChatModel, OpenAiChatModel } from '@sprout/llm';
import { CONFIG } from '@sprout/platform';
import { type AiResponderConfig } from '../config';
import { SpendingModule } from '../spending/spending.module';
import { AnsweringService, CHAT_MODEL, OFFLINE_ADVISOR } from './answering.service';
import { ConversationHistoryService } from './conversation-history.service';
import { ModelCatalogService } from './model-catalog.service';

/** The fallback chain, the system prompt, the conversation history and the model catalog. */
@Module({
  imports: [SpendingModule],
  providers: [
    {
      provide: CHAT_MODEL,
      inject: [CONFIG],
      // OpenAI only with a key (OPENAI_BASE_URL points the SDK at the fake server in tests).
      useFactory: (config: AiResponderConfig): ChatModel | null =>
        config.openaiApiKey
          ? new OpenAiChatModel({
              apiKey: config.openaiApiKey,
              ...(config.openaiBaseUrl ? { baseURL: config.openaiBaseUrl } : {}),
            })
          : null,
    },
    { provide: OFFLINE_ADVISOR, useValue: adviseOffline },
    ModelCatalogService,
    ConversationHistoryService,
    AnsweringService,
  ],
  exports: [CHAT_MODEL, AnsweringService, ConversationHistoryService, ModelCatalogService, SpendingModule],
})
export class AnsweringModule {}
