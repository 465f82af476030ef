import { type Provider } from '@nestjs/common';
import { type ChatModel, OpenAiChatModel } from '@sprout/llm';
import { CONFIG } from '@sprout/platform';
import { type ImageProcessorConfig } from '../config';

/** Injection token of the vision-capable chat model: OpenAI, or null without OPENAI_API_KEY. */
export const VISION_MODEL = Symbol('sprout:vision-model');

export const visionModelProvider: Provider = {
  provide: VISION_MODEL,
  inject: [CONFIG],
  useFactory: (config: ImageProcessorConfig): ChatModel | null =>
    config.openaiApiKey === undefined
      ? null
      : new OpenAiChatModel({
          apiKey: config.openaiApiKey,
          ...(config.openaiBaseUrl === undefined ? {} : { baseURL: config.openaiBaseUrl }),
          timeoutMs: config.imageAnalysisTimeoutMs,
        }),
};
