// Model management and the daily spending limit through the real app, on real
// Postgres and Redis; the provider's model list through the openai SDK against the fake server.
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type {
  CostImpactPreview,
  CreateModelResponse,
  ModelDto,
  ModelResponse,
  ModelStatsResponse,
  OpenAiModelsResponse,
} from '@sprout/contracts';
import { MODEL_CATALOG_CHANNEL } from '@sprout/domain';
import { pricedModelNames } from '@sprout/llm';
import { FakeOpenAI } from '@sprout/testing';
import { Redis } from 'ioredis';
import { login, startGateway, type TestGateway } from './support/gateway';
import { insertConversation, insertUser } from './support/seed';

let gw: TestGateway;
let app: NestFastifyApplication;
let cookie: string;
let openai: FakeOpenAI;
/** A second gateway on the same database with an OpenAI key (the fake server). */
let keyed: NestFastifyApplication;
let keyedCookie: string;

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  openai = await FakeOpenAI.start();
  gw = await startGateway({ openaiApiKey: undefined, openaiBaseUrl: undefined });
  app = gw.app;
  cookie = await login(app);
  keyed = await gw.startAnother({ openaiApiKey: openai.apiKey, openaiBaseUrl: openai.baseURL });
  keyedCookie = await login(keyed);
});
afterAll(async () => {
  await gw?.close();
  await openai?.close();
});

type Method = 'GET' | 'POST' | 'PUT';
const call = (method: Method, url: string, payload?: unknown, on = app, as = cookie) =>
  on.inject({
    method,
    url,
    headers: { cookie: as },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const models = async (): Promise<ModelDto[]> => (await call('GET', '/api/admin/models/all')).json();
const byName = async (name: string): Promise<ModelDto> => {
  const found = (await models()).find((m) => m.name === name);
  if (found === undefined) throw new Error(`${name} is not listed`);
  return found;
};
const add = async (body: Record<string, unknown>): Promise<CreateModelResponse> => {
  const res = await call('POST', '/api/admin/models', body);
  expect(res.statusCode).toBe(200);
  return res.json();
};
const message = (res: { json(): unknown }): string => (res.json() as { message: string }).message;
const reset = () =>
  gw.db.dataSource.query('TRUNCATE "ai_models", "llm_calls", "messages", "conversations", "users" CASCADE');

describe('access', () => {
  it.each([
    ['GET', '/api/admin/models/all'],
    ['GET', '/api/admin/models/stats'],
    ['GET', '/api/admin/models/openai-models'],
    ['POST', '/api/admin/models'],
    ['PUT', '/api/admin/models/spending-limit'],
    ['GET', `/api/admin/models/cost-impact?fromModelId=${UNKNOWN_ID}&toModelId=${UNKNOWN_ID}`],
    ['PUT', `/api/admin/models/${UNKNOWN_ID}`],
    ['PUT', `/api/admin/models/${UNKNOWN_ID}/default`],
    ['PUT', `/api/admin/models/${UNKNOWN_ID}/fallback`],
    ['PUT', `/api/admin/models/${UNKNOWN_ID}/remove`],
  ] as const)('%s %s requires an admin session', async (method, url) => {
    const res = await app.inject({ method, url, payload: {} });
    expect(res.statusCode).toBe(401);
  });
});

describe('adding and editing models', () => {
  beforeAll(reset);

  it('adds a model with the documented defaults (4096 max tokens, prices 0, active, visible)', async () => {
    const saved = await add({ name: 'gpt-4o-mini' });
    expect(saved).toMatchObject({
      success: true,
      created: true,
      model: {
        name: 'gpt-4o-mini',
        displayName: 'gpt-4o-mini',
        inputPricePerMillion: 0,
        outputPricePerMillion: 0,
        maxTokens: 4096,
        isActive: true,
        isVisible: true,
        isLive: false,
        isFallback: false,
      },
    });
    expect(await models()).toEqual([saved.model]);
  });

  it('updates an existing name instead of adding a second one, and makes it visible again', async () => {
    const first = await add({ name: 'gpt-4o', inputPricePerMillion: 2.5, outputPricePerMillion: 10 });
    const hidden = await call('PUT', `/api/admin/models/${first.model.id}/remove`);
    expect(hidden.statusCode).toBe(200);
    expect((await models()).map((m) => m.name)).not.toContain('gpt-4o');

    const again = await add({
      name: 'gpt-4o',
      inputPricePerMillion: 3,
      outputPricePerMillion: 12,
      maxTokens: 2048,
    });
    expect(again.created).toBe(false);
    expect(again.model).toMatchObject({
      id: first.model.id,
      isVisible: true,
      inputPricePerMillion: 3,
      outputPricePerMillion: 12,
      maxTokens: 2048,
    });
    expect((await models()).filter((m) => m.name === 'gpt-4o')).toHaveLength(1);
  });

  it.each([
    [{}, 'Please enter a model name'],
    [{ name: '   ' }, 'Please enter a model name'],
    [{ name: 'gpt 4o; DROP' }, 'name: must be a model name such as gpt-4o-mini'],
    [{ name: 'm', maxTokens: 2_000_001 }, 'maxTokens: must be a whole number from 0 to 2000000'],
    [{ name: 'm', maxTokens: 12.5 }, 'maxTokens: must be a whole number'],
    [{ name: 'm', inputPricePerMillion: 'abc' }, 'inputPricePerMillion: must be a number'],
    [{ name: 'm', outputPricePerMillion: -1 }, 'outputPricePerMillion: must be 0 or more'],
  ])('refuses %j with 400 %p', async (body, expected) => {
    const res = await call('POST', '/api/admin/models', body);
    expect(res.statusCode).toBe(400);
    expect(message(res)).toBe(expected);
  });

  it('changes only the fields sent (bulk save sends changed fields per model)', async () => {
    const model = await byName('gpt-4o-mini');
    const res = await call('PUT', `/api/admin/models/${model.id}`, { inputPricePerMillion: 0.15 });
    expect(res.statusCode).toBe(200);
    expect(res.json<ModelResponse>().model).toEqual({ ...model, inputPricePerMillion: 0.15 });
    const more = await call('PUT', `/api/admin/models/${model.id}`, {
      outputPricePerMillion: 0.6,
      maxTokens: 1000,
    });
    expect(more.json<ModelResponse>().model).toEqual({
      ...model,
      inputPricePerMillion: 0.15,
      outputPricePerMillion: 0.6,
      maxTokens: 1000,
    });
  });

  it('answers 404 for an unknown id and 400 for a bad id, a bad value or a field it does not change', async () => {
    const unknown = await call('PUT', `/api/admin/models/${UNKNOWN_ID}`, { maxTokens: 1 });
    expect(unknown.statusCode).toBe(404);
    expect(message(unknown)).toBe('Model not found.');
    const badId = await call('PUT', '/api/admin/models/not-a-uuid', { maxTokens: 1 });
    expect(badId.statusCode).toBe(400);
    expect(message(badId)).toBe('Model id must be a UUID');
    const model = await byName('gpt-4o-mini');
    const badValue = await call('PUT', `/api/admin/models/${model.id}`, { maxTokens: -1 });
    expect(badValue.statusCode).toBe(400);
    expect(message(badValue)).toBe('maxTokens: must be a whole number from 0 to 2000000');
    const live = await call('PUT', `/api/admin/models/${model.id}`, { isLive: true });
    expect(live.statusCode).toBe(400);
    expect(message(live)).toContain('(not isLive)');
    for (const action of ['default', 'fallback', 'remove']) {
      const res = await call('PUT', `/api/admin/models/${UNKNOWN_ID}/${action}`);
      expect(res.statusCode).toBe(404);
    }
  });
});

describe('live and fallback rules', () => {
  let a: ModelDto;
  let b: ModelDto;
  let c: ModelDto;
  let off: ModelDto;

  beforeAll(async () => {
    await reset();
    a = (await add({ name: 'gpt-4o-mini', inputPricePerMillion: 0.15, outputPricePerMillion: 0.6 })).model;
    b = (await add({ name: 'gpt-4.1-mini', inputPricePerMillion: 0.4, outputPricePerMillion: 1.6 })).model;
    c = (await add({ name: 'gpt-4.1-nano', inputPricePerMillion: 0.1, outputPricePerMillion: 0.4 })).model;
    off = (await add({ name: 'gpt-3.5-turbo', isActive: false })).model;
  });

  /** The models holding each role (every other model holds none). */
  const roles = async () => {
    const list = await models();
    return {
      live: list.filter((m) => m.isLive).map((m) => m.name),
      fallback: list.filter((m) => m.isFallback).map((m) => m.name),
    };
  };

  it('sets one live model and at most one fallback, live first in the list', async () => {
    expect((await call('PUT', `/api/admin/models/${a.id}/default`)).statusCode).toBe(200);
    expect((await call('PUT', `/api/admin/models/${b.id}/fallback`)).statusCode).toBe(200);
    expect((await models()).map((m) => m.name)).toEqual([
      'gpt-4o-mini',
      'gpt-4.1-mini',
      'gpt-4.1-nano',
      'gpt-3.5-turbo',
    ]);
    expect((await call('PUT', `/api/admin/models/${c.id}/fallback`)).statusCode).toBe(200);
    expect(await roles()).toEqual({ live: ['gpt-4o-mini'], fallback: ['gpt-4.1-nano'] });
    // Setting again changes nothing.
    expect((await call('PUT', `/api/admin/models/${a.id}/default`)).statusCode).toBe(200);
    expect((await call('PUT', `/api/admin/models/${c.id}/fallback`)).statusCode).toBe(200);
    expect(await roles()).toEqual({ live: ['gpt-4o-mini'], fallback: ['gpt-4.1-nano'] });
  });

  it('promoting the fallback swaps it with the live model', async () => {
    const res = await call('PUT', `/api/admin/models/${c.id}/default`);
    expect(res.statusCode).toBe(200);
    expect(res.json<ModelResponse>().model).toMatchObject({
      name: 'gpt-4.1-nano',
      isLive: true,
      isFallback: false,
    });
    expect(await roles()).toEqual({ live: ['gpt-4.1-nano'], fallback: ['gpt-4o-mini'] });
    const plain = await call('PUT', `/api/admin/models/${b.id}/default`);
    expect(plain.statusCode).toBe(200);
    expect(await roles()).toEqual({ live: ['gpt-4.1-mini'], fallback: ['gpt-4o-mini'] });
  });

  it('refuses an inactive model as live or fallback, and the live model as fallback (409)', async () => {
    const live = await call('PUT', `/api/admin/models/${off.id}/default`);
    expect(live.statusCode).toBe(409);
    expect(message(live)).toBe('Model "gpt-3.5-turbo" is inactive: activate it before making it live.');
    const fallback = await call('PUT', `/api/admin/models/${off.id}/fallback`);
    expect(fallback.statusCode).toBe(409);
    expect(message(fallback)).toBe(
      'Model "gpt-3.5-turbo" is inactive: activate it before making it the fallback.',
    );
    const same = await call('PUT', `/api/admin/models/${b.id}/fallback`);
    expect(same.statusCode).toBe(409);
    expect(message(same)).toBe(
      'Model "gpt-4.1-mini" is the live model: the fallback must be a different model.',
    );
  });

  it('never removes or deactivates the live model (409)', async () => {
    const removed = await call('PUT', `/api/admin/models/${b.id}/remove`);
    expect(removed.statusCode).toBe(409);
    expect(message(removed)).toBe(
      'Model "gpt-4.1-mini" is the live model and cannot be removed: make another model live first.',
    );
    const deactivated = await call('PUT', `/api/admin/models/${b.id}`, { isActive: false });
    expect(deactivated.statusCode).toBe(409);
    expect(message(deactivated)).toBe(
      'Model "gpt-4.1-mini" is the live model and cannot be deactivated: make another model live first.',
    );
    const hidden = await call('PUT', `/api/admin/models/${b.id}`, { isVisible: false });
    expect(hidden.statusCode).toBe(409);
    const readded = await call('POST', '/api/admin/models', { name: 'gpt-4.1-mini', isActive: false });
    expect(readded.statusCode).toBe(409);
    expect(await byName('gpt-4.1-mini')).toMatchObject({ isLive: true, isActive: true, isVisible: true });
  });

  it('deactivating or removing the fallback leaves no fallback; a removed model cannot be promoted', async () => {
    const deactivated = await call('PUT', `/api/admin/models/${a.id}`, { isActive: false });
    expect(deactivated.json<ModelResponse>().model).toMatchObject({ isActive: false, isFallback: false });
    await call('PUT', `/api/admin/models/${a.id}`, { isActive: true });
    expect((await call('PUT', `/api/admin/models/${a.id}/fallback`)).statusCode).toBe(200);
    const removed = await call('PUT', `/api/admin/models/${a.id}/remove`);
    expect(removed.json<ModelResponse>().model).toMatchObject({ isVisible: false, isFallback: false });
    expect((await models()).map((m) => m.name)).not.toContain('gpt-4o-mini');
    const promote = await call('PUT', `/api/admin/models/${a.id}/default`);
    expect(promote.statusCode).toBe(409);
    expect(message(promote)).toBe('Model "gpt-4o-mini" was removed: add it again before making it live.');
    expect((await models()).filter((m) => m.isFallback)).toEqual([]);
  });

  it('announces every committed change on the Redis channel ai-responder listens to', async () => {
    const subscriber = new Redis(gw.redis.url);
    try {
      const heard: string[] = [];
      const channel = `${gw.redis.prefix}:${MODEL_CATALOG_CHANNEL}`;
      await subscriber.subscribe(channel);
      subscriber.on('message', (name: string) => heard.push(name));
      await call('PUT', `/api/admin/models/${c.id}`, { outputPricePerMillion: 0.5 });
      await call('PUT', `/api/admin/models/${c.id}/default`);
      const deadline = Date.now() + 5_000;
      while (heard.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(heard).toEqual([channel, channel]);
    } finally {
      subscriber.disconnect();
    }
  });
});

describe("the provider's model list", () => {
  beforeAll(reset);
  beforeEach(() => openai.reset());

  it("without a key lists our price table's models and checks no name", async () => {
    const res = await call('GET', '/api/admin/models/openai-models');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ models: pricedModelNames(), source: 'price-table', namesChecked: false });
    expect((await add({ name: 'my-local-model' })).created).toBe(true);
  });

  it('with a key lists the models of the key through the SDK, read once for a few minutes', async () => {
    const first = await call('GET', '/api/admin/models/openai-models', undefined, keyed, keyedCookie);
    expect(first.json()).toEqual({
      models: [...openai.models].sort(),
      source: 'openai',
      namesChecked: true,
    } satisfies OpenAiModelsResponse);
    await call('GET', '/api/admin/models/openai-models', undefined, keyed, keyedCookie);
    expect(openai.requests.filter((r) => r.path === '/v1/models')).toHaveLength(1);
  });

  it("refuses a name missing from the provider's list with a message naming it", async () => {
    const res = await call('POST', '/api/admin/models', { name: 'gpt-4o-mni' }, keyed, keyedCookie);
    expect(res.statusCode).toBe(400);
    expect(message(res)).toBe('Model "gpt-4o-mni" is not a valid OpenAI model. Please check the model name.');
    const ok = await call('POST', '/api/admin/models', { name: 'gpt-4o-2024-08-06' }, keyed, keyedCookie);
    expect(ok.statusCode).toBe(200);
    // The offline advisor is ours, not the provider's.
    const offline = await call('POST', '/api/admin/models', { name: 'offline-advisor' }, keyed, keyedCookie);
    expect(offline.statusCode).toBe(200);
  });

  it('answers an empty list, not a 500, when the provider fails, and then checks no name', async () => {
    const fresh = await gw.startAnother({ openaiApiKey: openai.apiKey, openaiBaseUrl: openai.baseURL });
    const freshCookie = await login(fresh);
    openai.failNext({ status: 500, times: 2 });
    const res = await call('GET', '/api/admin/models/openai-models', undefined, fresh, freshCookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ models: [], source: 'openai', namesChecked: false });
    const added = await call('POST', '/api/admin/models', { name: 'gpt-9-preview' }, fresh, freshCookie);
    expect(added.statusCode).toBe(200);
  });
});

describe('cost impact', () => {
  let mini: ModelDto;
  let big: ModelDto;

  beforeAll(async () => {
    await reset();
    mini = (await add({ name: 'gpt-4o-mini', inputPricePerMillion: 0.15, outputPricePerMillion: 0.6 })).model;
    big = (await add({ name: 'gpt-4o', inputPricePerMillion: 2.5, outputPricePerMillion: 10 })).model;
  });

  const impact = (from: string, to: string) =>
    call('GET', `/api/admin/models/cost-impact?fromModelId=${from}&toModelId=${to}`);

  it('compares the average prices when there were no replies', async () => {
    const res = await impact(mini.id, big.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      fromModel: { name: 'gpt-4o-mini', inputCost: 0.15, outputCost: 0.6, avgCost: 0.375 },
      toModel: { name: 'gpt-4o', inputCost: 2.5, outputCost: 10, avgCost: 6.25 },
      percentageChange: 1566.67,
      costDifference: 5.875,
      basis: { kind: 'average', days: 30 },
    } satisfies CostImpactPreview);
  });

  it("projects the change on the last 30 days of replies' input and output tokens", async () => {
    const insert = (at: Date, prompt: number, completion: number, extra: Record<string, unknown> = {}) =>
      gw.db.dataSource.query(
        `INSERT INTO llm_calls (purpose, tier, model, prompt_tokens, completion_tokens, total_tokens, cost, error, created_at)
         VALUES ($1, $2, $3, $4::int, $5::int, $4::int + $5::int, 0.01, $6, $7)`,
        [
          extra.purpose ?? 'reply',
          extra.tier ?? 'primary',
          extra.model ?? 'gpt-4o-mini',
          prompt,
          completion,
          extra.error ?? null,
          at,
        ],
      );
    const now = Date.now();
    await insert(new Date(now - 2 * DAY), 600_000, 40_000);
    await insert(new Date(now - 20 * DAY), 200_000, 10_000, { tier: 'fallback', model: 'gpt-4.1-mini' });
    // Not replies of a model: outside 30 days, failed, summaries, templates, the offline advisor.
    await insert(new Date(now - 31 * DAY), 5_000_000, 5_000_000);
    await insert(new Date(now - DAY), 9_000_000, 0, { error: 'server: boom' });
    await insert(new Date(now - DAY), 9_000_000, 0, { purpose: 'summary' });
    await insert(new Date(now - DAY), 9_000_000, 0, { tier: 'template', model: null });
    await insert(new Date(now - DAY), 9_000_000, 0, { model: 'offline-advisor' });

    const res = await impact(mini.id, big.id);
    // 800k input, 50k output: from 0.8 * 0.15 + 0.05 * 0.6 = 0.15; to 0.8 * 2.5 + 0.05 * 10 = 2.5.
    expect(res.json()).toMatchObject({
      percentageChange: 1566.67,
      costDifference: 2.35,
      basis: {
        kind: 'usage',
        days: 30,
        replies: 2,
        inputTokens: 800_000,
        outputTokens: 50_000,
        fromCost: 0.15,
        toCost: 2.5,
      },
    });
    const back = (await impact(big.id, mini.id)).json<CostImpactPreview>();
    expect(back.percentageChange).toBe(-94);
    expect(back.costDifference).toBe(-2.35);
  });

  it('answers 404 for an unknown model and 400 without both ids', async () => {
    const unknown = await impact(mini.id, UNKNOWN_ID);
    expect(unknown.statusCode).toBe(404);
    expect(message(unknown)).toBe('Model not found.');
    const missing = await call('GET', `/api/admin/models/cost-impact?fromModelId=${mini.id}`);
    expect(missing.statusCode).toBe(400);
    expect(message(missing)).toBe('toModelId: must be a model id (UUID)');
  });
});

describe('usage, spend and the spending limit', () => {
  beforeAll(reset);
  let phones = 0;

  const seedReply = async (options: {
    model: string;
    cost: number;
    tokens: [number, number];
    nextSentiment?: string | null;
    test?: boolean;
    at?: Date;
  }): Promise<void> => {
    const ds = gw.db.dataSource;
    const test = options.test ?? false;
    const at = options.at ?? new Date(Date.now() - 60_000);
    phones += 1;
    const userId = await insertUser(ds, `+1503555${String(phones).padStart(4, '0')}`, test);
    const conversationId = await insertConversation(ds, userId, test);
    const insertMessage = async (direction: string, created: Date, sentiment: string | null = null) => {
      const [row] = await ds.query<Array<{ id: string }>>(
        `INSERT INTO messages (user_id, conversation_id, direction, content, status, is_test_user, created_at, sentiment)
         VALUES ($1, $2, $3, 'text', 'received', $4, $5, $6) RETURNING id`,
        [userId, conversationId, direction, test, created, sentiment],
      );
      return row?.id;
    };
    await insertMessage('inbound', new Date(at.getTime() - 1_000), 'negative');
    const reply = await insertMessage('outbound', at);
    if (options.nextSentiment !== undefined) {
      await insertMessage('inbound', new Date(at.getTime() + 1_000), options.nextSentiment);
    }
    await ds.query(
      `INSERT INTO llm_calls (purpose, tier, model, prompt_tokens, completion_tokens, total_tokens, cost, message_id, is_test_user, created_at)
       VALUES ('reply', 'primary', $1, $2::int, $3::int, $2::int + $3::int, $4, $5, $6, $7)`,
      [options.model, options.tokens[0], options.tokens[1], options.cost, reply, test, at],
    );
  };

  it('starts with no usage, nothing spent and the default limit of $50', async () => {
    const res = await call('GET', '/api/admin/models/stats');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      stats: [],
      globalSpending: 0,
      spendingLimit: 50,
    } satisfies ModelStatsResponse);
  });

  it("sums each model's replies, tokens and cost, with how gardeners answered them", async () => {
    await seedReply({ model: 'gpt-4o-mini', cost: 0.0012, tokens: [500, 100], nextSentiment: 'positive' });
    await seedReply({ model: 'gpt-4o-mini', cost: 0.0008, tokens: [300, 50], nextSentiment: 'neutral' });
    await seedReply({ model: 'gpt-4o-mini', cost: 0.001, tokens: [400, 80] });
    await seedReply({ model: 'gpt-4o', cost: 0.02, tokens: [500, 200], nextSentiment: 'frustrated' });
    await seedReply({ model: 'gpt-4o', cost: 0.5, tokens: [1, 1], test: true, nextSentiment: 'positive' });
    await seedReply({ model: 'gpt-4o', cost: 9, tokens: [1, 1], at: new Date(Date.now() - 40 * DAY) });

    const real = (await call('GET', '/api/admin/models/stats')).json<ModelStatsResponse>();
    expect(real.stats).toEqual([
      { modelName: 'gpt-4o', totalMessages: 1, totalTokensUsed: 700, totalCost: 0.02, avgSentiment: -1 },
      {
        modelName: 'gpt-4o-mini',
        totalMessages: 3,
        totalTokensUsed: 1_430,
        totalCost: 0.003,
        avgSentiment: 0.5,
      },
    ]);
    // Today's spend is every call of the day, test users' included: it is what the limit caps.
    expect(real.globalSpending).toBeCloseTo(0.523, 6);
    const test = (await call('GET', '/api/admin/models/stats?showTestData=true')).json<ModelStatsResponse>();
    expect(test.stats).toEqual([
      { modelName: 'gpt-4o', totalMessages: 1, totalTokensUsed: 2, totalCost: 0.5, avgSentiment: 1 },
    ]);
  });

  it('counts the day in SPEND_TIME_ZONE', async () => {
    const HOUR = 3_600_000;
    // No daylight saving time in either: midnight is a fixed offset from UTC's.
    const zones = [
      { zone: 'Pacific/Kiritimati', offset: 14 * HOUR },
      { zone: 'Pacific/Pago_Pago', offset: -11 * HOUR },
    ];
    const midnightOf = (offset: number) => new Date(Date.now() + offset).setUTCHours(0, 0, 0, 0) - offset;
    // A call a minute before and a minute after each zone's midnight.
    const calls = zones.flatMap(({ offset }, i) => [
      { at: midnightOf(offset) - 60_000, cost: 1 + i * 10 },
      { at: midnightOf(offset) + 60_000, cost: 2 + i * 10 },
    ]);
    const spentIn = async (other: NestFastifyApplication) =>
      (
        await call('GET', '/api/admin/models/stats', undefined, other, await login(other))
      ).json<ModelStatsResponse>().globalSpending;
    const gateways = await Promise.all(zones.map(({ zone }) => gw.startAnother({ spendTimeZone: zone })));
    const before = await Promise.all(gateways.map(spentIn));
    for (const { at, cost } of calls) {
      await gw.db.dataSource.query(
        `INSERT INTO llm_calls (purpose, tier, model, cost, created_at) VALUES ('reply', 'primary', 'gpt-4o', $1, $2)`,
        [cost, new Date(at)],
      );
    }
    for (const [i, { offset }] of zones.entries()) {
      const start = midnightOf(offset);
      const expected = calls.filter((c) => c.at >= start).reduce((sum, c) => sum + c.cost, 0);
      const after = await spentIn(gateways[i] as NestFastifyApplication);
      expect(after - (before[i] ?? 0)).toBeCloseTo(expected, 6);
    }
  });

  it('sets the daily limit (a number of dollars, 0 or more)', async () => {
    const res = await call('PUT', '/api/admin/models/spending-limit', { spendingLimit: 12.5 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, spendingLimit: 12.5 });
    expect((await call('GET', '/api/admin/models/stats')).json<ModelStatsResponse>().spendingLimit).toBe(
      12.5,
    );
    for (const [body, expected] of [
      [{ spendingLimit: -1 }, 'spendingLimit: must be 0 or more'],
      [{ spendingLimit: 'lots' }, 'spendingLimit: must be a number of dollars'],
      [{}, 'spendingLimit: must be a number of dollars'],
    ] as const) {
      const bad = await call('PUT', '/api/admin/models/spending-limit', body);
      expect(bad.statusCode).toBe(400);
      expect(message(bad)).toBe(expected);
    }
  });
});

describe("the simulator's test users", () => {
  beforeAll(async () => {
    await reset();
    await add({ name: 'gpt-4o-mini' });
    await add({ name: 'gpt-3.5-turbo', isActive: false });
    const hidden = await add({ name: 'gpt-4o' });
    await call('PUT', `/api/admin/models/${hidden.model.id}/remove`);
  });

  it.each(['no-such-model', 'gpt-3.5-turbo', 'gpt-4o'])(
    'refuses %p, which is not an active model (400)',
    async (testUserModel) => {
      const res = await call('POST', '/api/simulator/test-user', { testUserName: 'Tess', testUserModel });
      expect(res.statusCode).toBe(400);
      expect(message(res)).toBe(
        `testUserModel: "${testUserModel}" is not an active model. Choose one of the active models of Model Management.`,
      );
    },
  );

  it('accepts an active model, or none (the live model)', async () => {
    const withModel = await call('POST', '/api/simulator/test-user', {
      testUserName: 'Tess',
      testUserModel: 'gpt-4o-mini',
    });
    expect(withModel.statusCode).toBe(201);
    const without = await call('POST', '/api/simulator/test-user', { testUserName: 'Lee' });
    expect(without.statusCode).toBe(201);
  });
});
