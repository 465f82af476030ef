// The model port: what the reply pipeline, summaries and image analysis need from a chat model.

export type ChatRole = 'system' | 'user' | 'assistant';

export interface ChatTextPart {
  type: 'text';
  text: string;
}

export interface ChatImagePart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}

export type ChatContentPart = ChatTextPart | ChatImagePart;

export interface ChatMessage {
  role: ChatRole;
  content: string | ChatContentPart[];
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  maxTokens?: number;
  temperature?: number;
  /** The whole call's deadline; the adapter fails with kind 'timeout' after it. */
  timeoutMs: number;
}

export type ChatProvider = 'openai' | 'offline';

export interface ChatResult {
  content: string;
  promptTokens: number;
  completionTokens: number;
  /** The model that answered (as reported by the provider). */
  model: string;
  /** Offline answers cost nothing; OpenAI answers are priced with the model's price table. */
  provider: ChatProvider;
}

export interface ChatModel {
  readonly provider: ChatProvider;
  complete(request: ChatRequest): Promise<ChatResult>;
}

export type LlmErrorKind = 'timeout' | 'rate_limit' | 'server' | 'auth' | 'bad_request' | 'network';

/**
 * A failed model call. `retryable` says whether the same call may succeed later (timeouts, 429,
 * 5xx, network); the fallback chain moves on to the next tier either way.
 */
export class LlmError extends Error {
  override readonly name = 'LlmError';
  readonly kind: LlmErrorKind;
  readonly retryable: boolean;
  readonly status: number | undefined;

  constructor(init: {
    message: string;
    kind: LlmErrorKind;
    retryable?: boolean;
    status?: number;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.retryable = init.retryable ?? (init.kind !== 'auth' && init.kind !== 'bad_request');
    this.status = init.status;
  }
}

/** The text of a message, image parts left out. */
export function messageText(message: ChatMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .filter((part): part is ChatTextPart => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}
