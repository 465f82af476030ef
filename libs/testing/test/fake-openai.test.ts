import OpenAI from 'openai';
import { FakeOpenAI, defaultGardeningReply, fakeTokenCount } from '../src/fakes';

const API_KEY = 'sk-fake-openai-test';

async function apiError(promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof OpenAI.APIError) return error;
    throw error;
  }
  throw new Error('expected an APIError');
}

describe('FakeOpenAI', () => {
  let fake: FakeOpenAI;
  let client: OpenAI;

  beforeAll(async () => {
    fake = await FakeOpenAI.start({ apiKey: API_KEY });
    client = new OpenAI({ apiKey: API_KEY, baseURL: fake.baseURL, maxRetries: 0 });
  });

  afterAll(async () => {
    await fake.close();
  });

  beforeEach(() => fake.reset());

  it('answers a chat completion in OpenAI’s shape with usage from the text', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'You are a gardening advisor.' },
        { role: 'user', content: 'My tomato leaves are curling, why?' },
      ],
    });
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('gpt-4o-mini');
    const content = completion.choices[0]?.message.content ?? '';
    expect(content).toMatch(/tomato/i);
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage).toMatchObject({
      prompt_tokens:
        3 +
        2 * 4 +
        fakeTokenCount('You are a gardening advisor.') +
        fakeTokenCount('My tomato leaves are curling, why?'),
      completion_tokens: fakeTokenCount(content),
    });
    expect(completion.usage?.total_tokens).toBe(
      (completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0),
    );
  });

  it('derives the default reply from the last user message', () => {
    const ask = (text: string) =>
      defaultGardeningReply({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: text }] });
    expect(ask('How do I get rid of aphids?')).toMatch(/aphids/i);
    expect(ask('Best time to mow my lawn?')).toMatch(/lawn/i);
    expect(ask('Can I grow figs?')).not.toBe(ask('What about roses?'));
  });

  it('accepts image_url parts and counts them in the prompt', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'https://example.com/leaf.jpg' } },
          ],
        },
      ],
    });
    expect(completion.choices[0]?.message.content).toMatch(/photo/);
    expect(completion.usage?.prompt_tokens).toBe(3 + 4 + fakeTokenCount('What is this?') + 85);
  });

  it('replies with scripted text or a function of the request', async () => {
    fake.replyWith('Plant peas in March.');
    const first = await client.chat.completions.create({
      model: 'gpt-4.1-mini',
      messages: [{ role: 'user', content: 'peas?' }],
    });
    expect(first.choices[0]?.message.content).toBe('Plant peas in March.');

    fake.replyWith((request) => `model=${request.model} messages=${request.messages.length}`);
    const second = await client.chat.completions.create({
      model: 'gpt-5-mini',
      messages: [
        { role: 'system', content: 's' },
        { role: 'user', content: 'u' },
      ],
    });
    expect(second.choices[0]?.message.content).toBe('model=gpt-5-mini messages=2');
  });

  it('truncates at max_completion_tokens with finish_reason length', async () => {
    fake.replyWith('one two three four five six seven eight nine ten');
    const completion = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'count' }],
      max_completion_tokens: 4,
    });
    expect(completion.choices[0]?.message.content).toBe('one two three four');
    expect(completion.choices[0]?.finish_reason).toBe('length');
    expect(completion.usage?.completion_tokens).toBe(4);
  });

  it('logs requests', async () => {
    await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
      temperature: 0.3,
    });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(fake.completions[0]).toMatchObject({ model: 'gpt-4o-mini', temperature: 0.3 });
  });

  it('lists and retrieves models', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(
      expect.arrayContaining(['gpt-4o-mini', 'gpt-4o', 'gpt-4.1-mini', 'gpt-4.1', 'gpt-5-mini']),
    );
    await expect(client.models.retrieve('gpt-4o')).resolves.toMatchObject({ id: 'gpt-4o', object: 'model' });
    expect(await apiError(client.models.retrieve('gpt-nonexistent'))).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('rejects an unknown model with 404 model_not_found', async () => {
    const error = await apiError(
      client.chat.completions.create({ model: 'gpt-9', messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error.code).toBe('model_not_found');
  });

  it('rejects a request without messages', async () => {
    const error = await apiError(client.chat.completions.create({ model: 'gpt-4o-mini', messages: [] }));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
  });

  it('requires the API key', async () => {
    const wrong = new OpenAI({ apiKey: 'sk-wrong', baseURL: fake.baseURL, maxRetries: 0 });
    const error = await apiError(
      wrong.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(error.code).toBe('invalid_api_key');
    expect(await apiError(wrong.models.list())).toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it('fails the next requests on demand, then recovers', async () => {
    const ask = () =>
      client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    fake.failNext({ status: 429, times: 2 });
    expect(await apiError(ask())).toBeInstanceOf(OpenAI.RateLimitError);
    expect(await apiError(ask())).toBeInstanceOf(OpenAI.RateLimitError);
    await expect(ask()).resolves.toMatchObject({ object: 'chat.completion' });

    fake.failNext({ status: 500 });
    expect(await apiError(ask())).toBeInstanceOf(OpenAI.InternalServerError);
    fake.failNext({ status: 401 });
    expect(await apiError(ask())).toBeInstanceOf(OpenAI.AuthenticationError);
    fake.failNext({ status: 429, code: 'insufficient_quota' });
    expect((await apiError(ask())).code).toBe('insufficient_quota');
  });

  it('delays the next answer past the client deadline', async () => {
    fake.delayNext(3_000);
    const error = await apiError(
      client.chat.completions.create(
        { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
        { signal: AbortSignal.timeout(150) },
      ),
    );
    expect(error).toBeInstanceOf(OpenAI.APIUserAbortError);
    await fake.waitForRequests(1);
  });
});
