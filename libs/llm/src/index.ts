// The model port: chat model interface and errors, the OpenAI and offline adapters, prices and
// cost, token counting.
export * from './types';
export * from './tokens';
export * from './pricing';
export * from './openai-chat-model';
export * from './offline-chat-model';
