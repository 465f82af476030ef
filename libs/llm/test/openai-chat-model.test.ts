import { FakeOpenAI } from '@sprout/testing';
import { LlmError, OpenAiChatModel } from '@sprout/llm';
import { chatRequest as request } from './chat-request';

const API_KEY = 'sk-test-llm-lib';

async function llmError(promise: Promise<unknown>): Promise<LlmError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof LlmError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('OpenAiChatModel against the fake OpenAI', () => {
  let fake: FakeOpenAI;
  let model: OpenAiChatModel;

  beforeAll(async () => {
    fake = await FakeOpenAI.start({ apiKey: API_KEY });
    model = new OpenAiChatModel({ apiKey: API_KEY, baseURL: fake.baseURL });
  });

  afterAll(async () => {
    await fake.close();
  });

  beforeEach(() => fake.reset());

  it('completes a chat with usage', async () => {
    fake.replyWith('Water deeply twice a week.');
    const result = await model.complete(request);
    expect(result).toMatchObject({
      content: 'Water deeply twice a week.',
      model: 'gpt-4o-mini',
      provider: 'openai',
    });
    expect(result.promptTokens).toBeGreaterThan(10);
    expect(result.completionTokens).toBe(6);

    const [sent] = fake.completions;
    expect(sent).toMatchObject({
      model: 'gpt-4o-mini',
      max_completion_tokens: 200,
      temperature: 0.7,
      messages: [
        { role: 'system', content: 'You are Sprout, a gardening advisor.' },
        { role: 'user', content: 'How often should I water tomatoes?' },
      ],
    });
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it('sends image parts and omits temperature for reasoning models', async () => {
    fake.replyWith((r) => `saw ${r.messages.length} messages`);
    const result = await model.complete({
      model: 'gpt-5-mini',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is wrong with this leaf?' },
            { type: 'image_url', image_url: { url: 'https://example.com/leaf.jpg', detail: 'low' } },
          ],
        },
      ],
      temperature: 0.2,
      timeoutMs: 5_000,
    });
    expect(result.content).toBe('saw 1 messages');
    const [sent] = fake.completions;
    expect(sent?.temperature).toBeUndefined();
    expect(sent?.messages[0]?.content).toEqual([
      { type: 'text', text: 'What is wrong with this leaf?' },
      { type: 'image_url', image_url: { url: 'https://example.com/leaf.jpg', detail: 'low' } },
    ]);
  });

  it('sends only the text parts of system and assistant messages', async () => {
    fake.replyWith('ok');
    const parts = [
      { type: 'text' as const, text: 'Earlier:' },
      { type: 'image_url' as const, image_url: { url: 'https://example.com/leaf.jpg' } },
      { type: 'text' as const, text: 'a leaf.' },
    ];
    await model.complete({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: parts },
        { role: 'assistant', content: parts },
        { role: 'user', content: 'And now?' },
      ],
      timeoutMs: 5_000,
    });
    const texts = [
      { type: 'text', text: 'Earlier:' },
      { type: 'text', text: 'a leaf.' },
    ];
    expect(fake.completions[0]?.messages.map((m) => m.content)).toEqual([texts, texts, 'And now?']);
  });

  it.each([
    ['429 as a retryable rate limit', { status: 429 }, { kind: 'rate_limit', retryable: true, status: 429 }],
    [
      'an exhausted quota as not retryable',
      { status: 429, code: 'insufficient_quota', message: 'You exceeded your current quota.' },
      { kind: 'rate_limit', retryable: false, status: 429 },
    ],
    ['500 as a retryable server error', { status: 500 }, { kind: 'server', retryable: true, status: 500 }],
  ] as const)('classifies %s, without SDK retries', async (_, failure, expected) => {
    fake.failNext(failure);
    const error = await llmError(model.complete(request));
    expect(error).toMatchObject(expected);
    expect(fake.requests).toHaveLength(1);
  });

  it('classifies a slow answer as a timeout', async () => {
    fake.delayNext(3_000);
    const error = await llmError(model.complete({ ...request, timeoutMs: 200 }));
    expect(error).toMatchObject({ kind: 'timeout', retryable: true });
  });

  it('classifies a wrong key as auth, not retryable', async () => {
    const wrong = new OpenAiChatModel({ apiKey: 'sk-wrong-key-123456', baseURL: fake.baseURL });
    const error = await llmError(wrong.complete(request));
    expect(error).toMatchObject({ kind: 'auth', retryable: false, status: 401 });
  });

  it('classifies an unknown model as a bad request', async () => {
    const error = await llmError(model.complete({ ...request, model: 'gpt-9-ultra' }));
    expect(error).toMatchObject({ kind: 'bad_request', retryable: false, status: 404 });
  });

  it('classifies an unreachable server as a network error', async () => {
    const gone = await FakeOpenAI.start({ apiKey: API_KEY });
    const baseURL = gone.baseURL;
    await gone.close();
    const offline = new OpenAiChatModel({ apiKey: API_KEY, baseURL });
    const error = await llmError(offline.complete(request));
    expect(error).toMatchObject({ kind: 'network', retryable: true });
  });

  it('lists models', async () => {
    const models = await model.listModels();
    expect(models).toEqual(
      expect.arrayContaining(['gpt-4o-mini', 'gpt-4o', 'gpt-4.1-mini', 'gpt-4.1', 'gpt-5-mini']),
    );
    expect([...models].sort()).toEqual(models);
  });

  it('wraps listModels failures', async () => {
    fake.failNext({ status: 503 });
    const error = await llmError(model.listModels());
    expect(error).toMatchObject({ kind: 'server', retryable: true, status: 503 });
  });
});

describe('OpenAiChatModel.listModels deadline', () => {
  it('classifies a slow models list as a timeout', async () => {
    const fake = await FakeOpenAI.start({ apiKey: API_KEY });
    try {
      const model = new OpenAiChatModel({ apiKey: API_KEY, baseURL: fake.baseURL, timeoutMs: 150 });
      fake.delayNext(3_000);
      const error = await llmError(model.listModels());
      expect(error).toMatchObject({ kind: 'timeout', retryable: true });
    } finally {
      await fake.close();
    }
  });
});
