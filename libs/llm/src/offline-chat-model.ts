import { countChatTokens, countTokens } from './tokens';
import { type ChatModel, type ChatRequest, type ChatResult, LlmError } from './types';

export type OfflineResponder = (request: ChatRequest) => Promise<string> | string;

export const OFFLINE_MODEL_NAME = 'offline-advisor';

export interface OfflineChatModelOptions {
  /** Reported as the answering model; default "offline-advisor". */
  name?: string;
}

/**
 * A ChatModel answered in-process by a responder (the gardening lib's offline advisor). Token
 * counts come from the tokenizer so usage stays comparable; the cost is 0 (provider 'offline').
 */
export class OfflineChatModel implements ChatModel {
  readonly provider = 'offline' as const;
  readonly name: string;

  constructor(
    private readonly responder: OfflineResponder,
    options: OfflineChatModelOptions = {},
  ) {
    this.name = options.name ?? OFFLINE_MODEL_NAME;
  }

  async complete(request: ChatRequest): Promise<ChatResult> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new LlmError({ message: 'Offline responder timed out', kind: 'timeout' })),
        request.timeoutMs,
      );
    });
    let answer: string;
    try {
      answer = await Promise.race([Promise.resolve().then(() => this.responder(request)), deadline]);
    } catch (error) {
      if (error instanceof LlmError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw new LlmError({
        message: `Offline responder failed: ${message}`,
        kind: 'server',
        retryable: false,
        cause: error,
      });
    } finally {
      clearTimeout(timer);
    }
    const content = answer.trim();
    if (content.length === 0) {
      throw new LlmError({
        message: 'Offline responder returned an empty answer',
        kind: 'server',
        retryable: false,
      });
    }
    return {
      content,
      promptTokens: countChatTokens(request.messages),
      completionTokens: countTokens(content),
      model: this.name,
      provider: 'offline',
    };
  }
}
