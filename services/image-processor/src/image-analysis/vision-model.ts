import { type Provider } from '@nestjs/common';
import { type ChatModel, OpenAiChatModel } from '@sprout/llm';
import { CONFIG } from '@sprout/platform';
import { type ImageProcessorConfig } from '../config';
import { OfflineImageAnalyzer } from './offline/offline-image-analyzer';

/** Injection token of the vision-capable chat model: OpenAI, or the offline analyser without OPENAI_API_KEY. */
export const VISION_MODEL = Symbol('sprout:vision-model');

export const visionModelProvider: Provider = {
  provide: VISION_MODEL,
  inject: [CONFIG],
  useFactory: (config: ImageProcessorConfig): ChatModel =>
    config.openaiApiKey === undefined
      ? new OfflineImageAnalyzer()
      : new OpenAiChatModel({
          apiKey: config.openaiApiKey,
          ...(config.openaiBaseUrl === undefined ? {} : { baseURL: config.openaiBaseUrl }),
          timeoutMs: config.imageAnalysisTimeoutMs,
        }),
};
