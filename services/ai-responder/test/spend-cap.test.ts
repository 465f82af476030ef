// The daily spending limit as a hard cap under concurrency: two responder replicas,
// 20 replies at once against the fake OpenAI server (the real openai SDK over HTTP), each model
// call slow enough that all of them are in flight together.
import { Logger } from '@nestjs/common';
import { AiModel, LlmCall, SPENDING_LIMIT_SETTING, setSetting } from '@sprout/domain';
import { Metrics } from '@sprout/platform';
import { type Harness, type Responder, startHarness, storeInbound } from './harness';
import { PipelineService } from '../src/pipeline/pipeline.service';

// Priced on output: every reply is cut at its 20 completion tokens (the fake server truncates a
// long answer), so a reply costs about its worst case, $0.02, and a $0.10 limit is a handful.
const LIVE = { name: 'gpt-4o-mini', inputPricePerMillion: 1, outputPricePerMillion: 1_000, maxTokens: 20 };
const LIMIT = 0.1;
const LONG_ANSWER =
  'Water deeply twice a week in the morning, mulch two inches deep to keep the soil evenly moist, feed lightly once flowers open, and check the leaves for pests every few days.';

const QUESTIONS = [
  'When should I plant tomatoes?',
  'How often should I water roses?',
  'Why is my basil flowering?',
  'How do I get rid of aphids?',
  'What should I add to clay soil?',
];

describe('spending cap under concurrent replies', () => {
  let h: Harness;
  let second: Responder;
  let warnings: string[];
  const fake = () => {
    if (h.openai === undefined) throw new Error('no fake OpenAI');
    return h.openai;
  };

  beforeAll(async () => {
    // A model call that times out is settled as a failed call and answered from a template, an
    // extra row this test does not count: on a loaded machine 20 calls in one process can take
    // longer than 10 s, so the timeout sits far beyond any call here.
    h = await startHarness({ openai: true, config: { llmTimeoutMs: 120_000 } });
    second = await h.startResponder();
    await h.db.dataSource.getRepository(AiModel).save({ ...LIVE, isLive: true });
    await setSetting(h.db.dataSource.manager, SPENDING_LIMIT_SETTING, LIMIT);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => {
    warnings = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => {
      warnings.push(String(message));
    });
  });
  afterEach(() => jest.restoreAllMocks());

  const calls = () => h.db.dataSource.getRepository(LlmCall).find({ order: { createdAt: 'ASC' } });
  const spent = async () => (await calls()).reduce((sum, c) => sum + c.cost, 0);
  const counter = async (responder: Responder, threshold: string): Promise<number> => {
    const metric = await responder.app
      .get(Metrics)
      .registry.getSingleMetric('sprout_spend_threshold_crossed_total')
      ?.get();
    return metric?.values.find((v) => v.labels.threshold === threshold)?.value ?? 0;
  };

  it('admits model calls only while spent and reserved are under the limit: 20 at once overshoot by at most one', async () => {
    // Every call takes 400 ms: all 20 are in flight before the first one settles.
    fake().replyWith(async () => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      return LONG_ANSWER;
    });
    const inbound = await Promise.all(
      Array.from({ length: 20 }, (_, i) => storeInbound(h.db, QUESTIONS[i % QUESTIONS.length] ?? '')),
    );
    const replicas = [h.responder, second];
    const results = await Promise.all(
      inbound.map((m, i) => (replicas[i % 2] as Responder).app.get(PipelineService).reply(m.id)),
    );
    expect(results.every((r) => r.replyMessageId !== null)).toBe(true);

    const all = await calls();
    const modelCalls = all.filter((c) => c.tier === 'primary');
    const templates = all.filter((c) => c.tier === 'template');
    expect(fake().completions).toHaveLength(modelCalls.length);
    expect(modelCalls.length).toBeGreaterThan(0);
    expect(modelCalls.length).toBeLessThan(20);
    expect(modelCalls.length + templates.length).toBe(20);

    // The worst case of one reply: its prompt (with the margin) and every completion token allowed.
    const worstPrompt = Math.max(...modelCalls.map((c) => c.promptTokens)) * 1.1 + 32;
    const oneReply =
      (worstPrompt * LIVE.inputPricePerMillion + LIVE.maxTokens * LIVE.outputPricePerMillion) / 1e6;
    const total = await spent();
    // Reached, and overshot by at most one reply's worst case (the last one admitted).
    expect(total).toBeGreaterThanOrEqual(LIMIT);
    expect(total).toBeLessThanOrEqual(LIMIT + oneReply);
    // Without reservations all 20 would have been admitted: none had settled when the others asked.
    expect(modelCalls.length).toBeLessThanOrEqual(
      Math.ceil(LIMIT / Math.min(...modelCalls.map((c) => c.cost))),
    );
    // Nothing is left reserved once every reply has settled.
    const [held] = await h.db.dataSource.query<Array<{ n: string }>>(
      'SELECT count(*) AS n FROM spend_reservations',
    );
    expect(Number(held?.n)).toBe(0);

    // 80% and 100% crossed: each announced once across both replicas, with a log line.
    for (const threshold of ['80', '100']) {
      expect((await counter(h.responder, threshold)) + (await counter(second, threshold))).toBe(1);
    }
    const reached = warnings.filter((w) => w.startsWith('Daily AI spending limit reached on '));
    const crossed = warnings.filter((w) => w.startsWith('Daily AI spend crossed 80% of the limit on '));
    expect(reached).toHaveLength(1);
    expect(crossed).toHaveLength(1);
    expect(crossed[0]).toMatch(/ \(UTC\): \$0\.\d{4} of \$0\.1000 \(\d+\.\d%\)$/);
  });

  it('makes no model call after the cap: later replies answer from templates', async () => {
    fake().reset();
    const before = (await calls()).length;
    const later = await Promise.all(
      QUESTIONS.map(async (q, i) => {
        const m = await storeInbound(h.db, q);
        return (i % 2 === 0 ? h.responder : second).app.get(PipelineService).reply(m.id);
      }),
    );
    expect(later.every((r) => r.replyMessageId !== null)).toBe(true);
    expect(fake().completions).toHaveLength(0);
    const added = (await calls()).slice(before);
    expect(added.map((c) => c.tier)).toEqual(QUESTIONS.map(() => 'template'));
  });

  it('admits model calls again at once when the limit is raised', async () => {
    fake().reset();
    await setSetting(h.db.dataSource.manager, SPENDING_LIMIT_SETTING, 50);
    const m = await storeInbound(h.db, 'How deep should I plant garlic?');
    await second.app.get(PipelineService).reply(m.id);
    expect(fake().completions).toHaveLength(1);
  });
});
