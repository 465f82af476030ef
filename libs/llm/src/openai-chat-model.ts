import OpenAI from 'openai';
import { type ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import {
  type ChatMessage,
  type ChatModel,
  type ChatRequest,
  type ChatResult,
  type ChatTextPart,
  LlmError,
} from './types';

export interface OpenAiChatModelOptions {
  apiKey: string;
  /** e.g. https://api.openai.com/v1 or the fake server's `${url}/v1`. */
  baseURL?: string;
  /** Deadline of listModels (complete() carries its own); default 30 s. */
  timeoutMs?: number;
}

/** Reasoning models (gpt-5, o-series) accept only the default temperature. */
function acceptsTemperature(model: string): boolean {
  return !/^(gpt-5|o\d)/i.test(model);
}

/** System and assistant messages carry text only: their image parts are dropped. */
function textOnly(content: ChatMessage['content']): string | ChatTextPart[] {
  return typeof content === 'string'
    ? content
    : content.flatMap((part) => (part.type === 'text' ? [part] : []));
}

function toOpenAiMessage(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: textOnly(message.content) };
    case 'assistant':
      return { role: 'assistant', content: textOnly(message.content) };
    case 'user':
      return { role: 'user', content: message.content };
  }
}

/** Maps anything the openai SDK throws into an LlmError. */
export function toLlmError(error: unknown): LlmError {
  if (error instanceof LlmError) return error;
  if (error instanceof OpenAI.APIConnectionTimeoutError || error instanceof OpenAI.APIUserAbortError) {
    return new LlmError({ message: 'OpenAI request timed out', kind: 'timeout', cause: error });
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return new LlmError({ message: `OpenAI unreachable: ${error.message}`, kind: 'network', cause: error });
  }
  if (error instanceof OpenAI.APIError) {
    // instanceof narrows the generic APIError to APIError<any, ...>: read its fields as unknown.
    const rawStatus: unknown = error.status;
    const rawCode: unknown = error.code;
    const status = typeof rawStatus === 'number' ? rawStatus : 0;
    const message = error.message;
    if (status === 429) {
      // An exhausted quota is a 429 too, but waiting does not fix it.
      const retryable = rawCode !== 'insufficient_quota';
      return new LlmError({ message, kind: 'rate_limit', retryable, status, cause: error });
    }
    if (status === 401 || status === 403)
      return new LlmError({ message, kind: 'auth', status, cause: error });
    if (status === 408) return new LlmError({ message, kind: 'timeout', status, cause: error });
    if (status === 409 || status >= 500)
      return new LlmError({ message, kind: 'server', status, cause: error });
    return new LlmError({ message, kind: 'bad_request', status, cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new LlmError({ message, kind: 'server', retryable: false, cause: error });
}

export class OpenAiChatModel implements ChatModel {
  readonly provider = 'openai' as const;
  private readonly client: OpenAI;
  private readonly timeoutMs: number;

  constructor(options: OpenAiChatModelOptions) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.client = new OpenAI({
      apiKey: options.apiKey,
      ...(options.baseURL ? { baseURL: options.baseURL } : {}),
      // The fallback chain (live model, fallback model, templates) handles failure, not the SDK.
      maxRetries: 0,
      timeout: this.timeoutMs + 1_000,
    });
  }

  async complete(request: ChatRequest): Promise<ChatResult> {
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await this.client.chat.completions.create(
        {
          model: request.model,
          messages: request.messages.map(toOpenAiMessage),
          ...(request.maxTokens === undefined ? {} : { max_completion_tokens: request.maxTokens }),
          ...(request.temperature === undefined || !acceptsTemperature(request.model)
            ? {}
            : { temperature: request.temperature }),
        },
        // Our own deadline signal: the SDK then reports APIUserAbortError, which is recognised
        // reliably (its own timeout detection depends on the error's realm).
        { signal: AbortSignal.timeout(request.timeoutMs), timeout: request.timeoutMs + 1_000, maxRetries: 0 },
      );
    } catch (error) {
      throw toLlmError(error);
    }
    const choice = completion.choices[0];
    const content = choice?.message.content?.trim() ?? '';
    if (content.length === 0) {
      const reason = choice?.message.refusal
        ? 'the model refused'
        : `finish reason ${choice?.finish_reason ?? 'none'}`;
      throw new LlmError({
        message: `OpenAI returned an empty answer (${reason})`,
        kind: 'server',
        retryable: false,
      });
    }
    return {
      content,
      promptTokens: completion.usage?.prompt_tokens ?? 0,
      completionTokens: completion.usage?.completion_tokens ?? 0,
      model: completion.model || request.model,
      provider: 'openai',
    };
  }

  /** Model ids the API key can use, sorted. */
  async listModels(): Promise<string[]> {
    try {
      const ids: string[] = [];
      const signal = AbortSignal.timeout(this.timeoutMs);
      for await (const model of this.client.models.list({ signal })) ids.push(model.id);
      return ids.sort();
    } catch (error) {
      throw toLlmError(error);
    }
  }
}
