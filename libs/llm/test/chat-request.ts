import type { ChatRequest } from '@sprout/llm';

/** A gardener's question as the responders ask it of a chat model. */
export const chatRequest: ChatRequest = {
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', content: 'You are Sprout, a gardening advisor.' },
    { role: 'user', content: 'How often should I water tomatoes?' },
  ],
  maxTokens: 200,
  temperature: 0.7,
  timeoutMs: 5_000,
};
