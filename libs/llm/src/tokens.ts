// Token counting with the o200k_base encoding (gpt-4o, gpt-4.1, gpt-5 families). gpt-tokenizer
// ships a CommonJS build selected by the "require" export condition, which both Jest and the
// SWC CommonJS output resolve.
import { countTokens as countBpeTokens } from 'gpt-tokenizer';
import { type ChatMessage } from './types';

// Text like "<|endoftext|>" in a user message is plain text, not a control token.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Per-message framing of the chat format (role and separators), from OpenAI's cookbook. */
const TOKENS_PER_MESSAGE = 4;
/** Every reply is primed with <|start|>assistant<|message|>. */
const TOKENS_REPLY_PRIMING = 3;
/**
 * An image's cost depends on its size and detail, which we do not know here: 85 is the base cost
 * of a low-detail image (and the floor of a high-detail one), good enough for budgeting history.
 */
export const IMAGE_TOKEN_ESTIMATE = 85;

export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  return countBpeTokens(text, PLAIN_TEXT);
}

export function countMessageTokens(message: ChatMessage): number {
  const content =
    typeof message.content === 'string'
      ? countTokens(message.content)
      : message.content.reduce(
          (sum, part) => sum + (part.type === 'text' ? countTokens(part.text) : IMAGE_TOKEN_ESTIMATE),
          0,
        );
  return TOKENS_PER_MESSAGE + content;
}

/** Prompt tokens of a chat request, as the chat completions API counts them (text exact, images estimated). */
export function countChatTokens(messages: readonly ChatMessage[]): number {
  if (messages.length === 0) return 0;
  return messages.reduce((sum, m) => sum + countMessageTokens(m), TOKENS_REPLY_PRIMING);
}

/**
 * Trims a conversation to a prompt budget: system messages are always kept; of the others, the
 * newest ones that fit are kept (stopping at the first that does not, so no gap appears in the
 * history). Order is preserved.
 */
export function fitHistory(messages: readonly ChatMessage[], budgetTokens: number): ChatMessage[] {
  const keep = new Set<number>();
  let used = TOKENS_REPLY_PRIMING;
  messages.forEach((message, index) => {
    if (message.role === 'system') {
      keep.add(index);
      used += countMessageTokens(message);
    }
  });
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (!message || message.role === 'system') continue;
    const cost = countMessageTokens(message);
    if (used + cost > budgetTokens) break;
    used += cost;
    keep.add(index);
  }
  return messages.filter((_, index) => keep.has(index));
}
