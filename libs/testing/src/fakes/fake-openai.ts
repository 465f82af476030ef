// A fake OpenAI API (chat completions, non-streaming, and the models list) on node:http, for the
// real openai SDK to talk to. Replies are scripted or derived from the last user message; usage is
// counted from the text. Failures and delays can be injected.
import http from 'node:http';
import { Waiters, closeServer, listen, randomHex, readBody, sendJson } from './http-util';

export interface FakeOpenAIOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The bearer token clients must send; default 'fake-openai-key'. */
  apiKey?: string;
  /** Models served by /v1/models and accepted by chat completions; default FAKE_OPENAI_MODELS. */
  models?: string[];
}

export type FakeOpenAIContentPart =
  { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string; detail?: string } };

export interface FakeOpenAIChatMessage {
  role: string;
  content: string | FakeOpenAIContentPart[] | null;
}

export interface FakeOpenAIChatRequest {
  model: string;
  messages: FakeOpenAIChatMessage[];
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  [key: string]: unknown;
}

export interface FakeOpenAIRequestLog {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body, or null. */
  body: unknown;
}

export type FakeOpenAIReply = string | ((request: FakeOpenAIChatRequest) => string | Promise<string>);

export interface FakeOpenAIFailure {
  status: number;
  /** OpenAI error code, e.g. 'rate_limit_exceeded', 'insufficient_quota', 'invalid_api_key'. */
  code?: string;
  message?: string;
  /** How many requests fail; default 1. */
  times?: number;
}

export const FAKE_OPENAI_MODELS: readonly string[] = [
  'gpt-4o-mini',
  'gpt-4o-mini-2024-07-18',
  'gpt-4o',
  'gpt-4o-2024-08-06',
  'gpt-4o-2024-11-20',
  'gpt-4.1-nano',
  'gpt-4.1-mini',
  'gpt-4.1',
  'gpt-5-nano',
  'gpt-5-mini',
  'gpt-5',
  'gpt-4-turbo',
  'gpt-3.5-turbo',
  'o3-mini',
  'o4-mini',
  'text-embedding-3-small',
  'whisper-1',
];

const DEFAULT_API_KEY = 'fake-openai-key';
/** Same floor the llm lib uses for an image of unknown size. */
const IMAGE_TOKENS = 85;

/** Rough BPE-like token count: words, numbers and punctuation marks each count one. */
export function fakeTokenCount(text: string): number {
  return text.match(/[\p{L}\p{M}]+|\p{N}{1,3}|[^\s\p{L}\p{M}\p{N}]/gu)?.length ?? 0;
}

function contentText(content: FakeOpenAIChatMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

const TOPICS: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /tomato/i,
    'For tomatoes: water deeply two or three times a week, mulch to keep the soil evenly moist, and feed lightly once the first flowers open.',
  ],
  [
    /aphid|pest|bug|insect/i,
    'For aphids and similar pests: knock them off with a strong spray of water, then use insecticidal soap every few days if they return.',
  ],
  [
    /rose/i,
    'For roses: give them six hours of sun, water at the base in the morning, and prune out dead canes in late winter.',
  ],
  [
    /lawn|grass/i,
    'For your lawn: mow high, water deeply once or twice a week in the morning, and overseed thin spots in early fall.',
  ],
  [
    /basil|herb/i,
    'For basil and other herbs: pinch off flower buds, harvest from the top, and keep them in full sun with well-drained soil.',
  ],
  [
    /soil|compost/i,
    'For better soil: work in two to three inches of compost each season and keep it covered with mulch.',
  ],
  [
    /plant|grow|seed|sow/i,
    'Check your last frost date, start seeds indoors six weeks before it, and plant out once nights stay above 50°F.',
  ],
  [
    /water/i,
    'Water deeply and less often, early in the day, so roots grow down and leaves dry before night.',
  ],
];

/** A short gardening answer keyed on the last user message. */
export function defaultGardeningReply(request: FakeOpenAIChatRequest): string {
  const lastUser = [...request.messages].reverse().find((m) => m.role === 'user');
  const question = contentText(lastUser?.content ?? '').trim();
  const hasImage = Array.isArray(lastUser?.content) && lastUser.content.some((p) => p.type === 'image_url');
  if (hasImage)
    return 'The plant in your photo looks healthy overall; check the undersides of the leaves for pests and keep watering evenly.';
  for (const [pattern, answer] of TOPICS) if (pattern.test(question)) return answer;
  const snippet = question.length > 40 ? `${question.slice(0, 40).trimEnd()}...` : question;
  return snippet
    ? `Good question about "${snippet}". Mulch around your plants, water deeply but less often, and check your local frost dates before planting.`
    : 'Mulch around your plants, water deeply but less often, and check your local frost dates before planting.';
}

function errorBody(
  status: number,
  code: string | undefined,
  message: string | undefined,
): Record<string, unknown> {
  if (status === 429) {
    return {
      error: {
        message: message ?? 'Rate limit reached for requests. Please try again in 20ms.',
        type: code === 'insufficient_quota' ? 'insufficient_quota' : 'requests',
        param: null,
        code: code ?? 'rate_limit_exceeded',
      },
    };
  }
  if (status === 401) {
    return {
      error: {
        message: message ?? 'Incorrect API key provided.',
        type: 'invalid_request_error',
        param: null,
        code: code ?? 'invalid_api_key',
      },
    };
  }
  if (status >= 500) {
    return {
      error: {
        message: message ?? 'The server had an error while processing your request. Sorry about that!',
        type: 'server_error',
        param: null,
        code: code ?? null,
      },
    };
  }
  return {
    error: {
      message: message ?? 'Invalid request.',
      type: 'invalid_request_error',
      param: null,
      code: code ?? null,
    },
  };
}

export class FakeOpenAI {
  readonly apiKey: string;
  /** Every request received (failed ones included), oldest first. */
  readonly requests: FakeOpenAIRequestLog[] = [];
  readonly models: string[];

  private url_ = '';
  private readonly server: http.Server;
  private reply: FakeOpenAIReply = defaultGardeningReply;
  private readonly failures: FakeOpenAIFailure[] = [];
  private readonly delays: number[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly waiters = new Waiters();

  private constructor(options: FakeOpenAIOptions) {
    this.apiKey = options.apiKey ?? DEFAULT_API_KEY;
    this.models = [...(options.models ?? FAKE_OPENAI_MODELS)];
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        sendJson(res, 500, errorBody(500, undefined, String(error)));
      });
    });
  }

  static async start(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
    const fake = new FakeOpenAI(options);
    fake.url_ = await listen(fake.server, options.port ?? 0, options.host ?? '127.0.0.1');
    return fake;
  }

  /** Origin, e.g. http://127.0.0.1:3011. */
  get url(): string {
    return this.url_;
  }

  /** The SDK's baseURL (origin + /v1): use as OPENAI_BASE_URL. */
  get baseURL(): string {
    return `${this.url_}/v1`;
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.waiters.cancelAll('FakeOpenAI closed');
    await closeServer(this.server);
  }

  /** Every following completion answers with this text, or with what the function returns. */
  replyWith(reply: FakeOpenAIReply): void {
    this.reply = reply;
  }

  failNext(failure: FakeOpenAIFailure): void {
    this.failures.push({ ...failure, times: failure.times ?? 1 });
  }

  delayNext(ms: number): void {
    this.delays.push(ms);
  }

  /** Back to the default reply; forget requests, failures and delays. */
  reset(): void {
    this.reply = defaultGardeningReply;
    this.requests.length = 0;
    this.failures.length = 0;
    this.delays.length = 0;
  }

  /** The chat completion requests received so far (bodies). */
  get completions(): FakeOpenAIChatRequest[] {
    return this.requests
      .filter((r) => r.path === '/v1/chat/completions' && r.body !== null)
      .map((r) => r.body as FakeOpenAIChatRequest);
  }

  waitForRequests(n: number, timeoutMs = 5_000): Promise<FakeOpenAIRequestLog[]> {
    return this.waiters.waitFor(
      () => (this.requests.length >= n ? [...this.requests] : undefined),
      timeoutMs,
      () => `waiting for ${n} request(s), have ${this.requests.length}`,
    );
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake-openai');
    const raw = await readBody(req);
    let body: unknown = null;
    if (raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        body = null;
      }
    }
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname, headers: req.headers, body });
    this.waiters.notify();

    const delay = this.delays.shift();
    if (delay !== undefined) {
      await this.sleep(delay);
      if (res.destroyed) return;
    }
    const failure = this.failures[0];
    if (failure) {
      failure.times = (failure.times ?? 1) - 1;
      if (failure.times <= 0) this.failures.shift();
      return sendJson(res, failure.status, errorBody(failure.status, failure.code, failure.message), {
        'x-request-id': `req_${randomHex(12)}`,
      });
    }
    if (req.headers.authorization !== `Bearer ${this.apiKey}`) {
      const shown = req.headers.authorization?.replace(/^Bearer\s+/i, '') ?? '';
      const masked = shown.length > 8 ? `${shown.slice(0, 3)}***${shown.slice(-4)}` : '***';
      return sendJson(
        res,
        401,
        errorBody(
          401,
          'invalid_api_key',
          `Incorrect API key provided: ${masked}. You can find your API key at https://platform.openai.com/account/api-keys.`,
        ),
      );
    }

    if (req.method === 'GET' && url.pathname === '/v1/models') {
      return sendJson(res, 200, { object: 'list', data: this.models.map((id) => this.model(id)) });
    }
    const modelMatch = /^\/v1\/models\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && modelMatch?.[1]) {
      const id = decodeURIComponent(modelMatch[1]);
      if (!this.models.includes(id)) return this.modelNotFound(res, id);
      return sendJson(res, 200, this.model(id));
    }
    if (req.method === 'POST' && url.pathname === '/v1/chat/completions') return this.chat(body, res);
    return sendJson(
      res,
      404,
      errorBody(404, 'unknown_url', `Unknown request URL: ${req.method} ${url.pathname}.`),
    );
  }

  private model(id: string): Record<string, unknown> {
    return { id, object: 'model', created: 1_715_367_049, owned_by: 'system' };
  }

  private modelNotFound(res: http.ServerResponse, id: string): void {
    sendJson(
      res,
      404,
      errorBody(
        404,
        'model_not_found',
        `The model \`${id}\` does not exist or you do not have access to it.`,
      ),
    );
  }

  private async chat(body: unknown, res: http.ServerResponse): Promise<void> {
    const request = body as Partial<FakeOpenAIChatRequest> | null;
    if (!request || typeof request !== 'object')
      return sendJson(
        res,
        400,
        errorBody(400, undefined, 'We could not parse the JSON body of your request.'),
      );
    if (typeof request.model !== 'string' || !request.model) {
      return sendJson(
        res,
        400,
        errorBody(400, 'missing_required_parameter', "Missing required parameter: 'model'."),
      );
    }
    if (!Array.isArray(request.messages) || request.messages.length === 0) {
      return sendJson(
        res,
        400,
        errorBody(
          400,
          'empty_array',
          "Invalid 'messages': empty array. Expected an array with minimum length 1.",
        ),
      );
    }
    if (request.stream === true)
      return sendJson(res, 400, errorBody(400, undefined, 'The fake OpenAI server does not stream.'));
    if (!this.models.includes(request.model)) return this.modelNotFound(res, request.model);
    for (const message of request.messages) {
      if (!Array.isArray(message.content)) continue;
      for (const part of message.content) {
        if (part.type === 'image_url' && !part.image_url?.url) {
          return sendJson(res, 400, errorBody(400, 'invalid_value', "Invalid 'image_url': missing url."));
        }
      }
    }
    const chatRequest = request as FakeOpenAIChatRequest;
    let content = typeof this.reply === 'string' ? this.reply : await this.reply(chatRequest);

    // Prompt tokens: text of every message plus a fixed framing per message and the reply priming.
    let promptTokens = 3;
    for (const message of chatRequest.messages) {
      promptTokens += 4 + fakeTokenCount(contentText(message.content));
      if (Array.isArray(message.content))
        promptTokens += IMAGE_TOKENS * message.content.filter((p) => p.type === 'image_url').length;
    }
    let completionTokens = fakeTokenCount(content);
    let finishReason = 'stop';
    const limit = chatRequest.max_completion_tokens ?? chatRequest.max_tokens;
    if (typeof limit === 'number' && completionTokens > limit) {
      const words = content.split(/\s+/);
      while (words.length > 1 && fakeTokenCount(words.join(' ')) > limit) words.pop();
      content = words.join(' ');
      completionTokens = fakeTokenCount(content);
      finishReason = 'length';
    }
    sendJson(
      res,
      200,
      {
        id: `chatcmpl-${randomHex(12)}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: chatRequest.model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content, refusal: null, annotations: [] },
            logprobs: null,
            finish_reason: finishReason,
          },
        ],
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
          prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
          completion_tokens_details: {
            reasoning_tokens: 0,
            audio_tokens: 0,
            accepted_prediction_tokens: 0,
            rejected_prediction_tokens: 0,
          },
        },
        service_tier: 'default',
        system_fingerprint: 'fp_fake',
      },
      { 'x-request-id': `req_${randomHex(12)}` },
    );
  }
}
