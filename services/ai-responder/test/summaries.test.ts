// Conversation summaries: re-scheduled after every message, written once the conversation is idle,
// by the live model when there is one (fake OpenAI here), else by rules.
import { Conversation, LlmCall } from '@sprout/domain';
import { type ChatModel } from '@sprout/llm';
import { CONFIG, JobQueues } from '@sprout/platform';
import { type FakeOpenAIChatRequest } from '@sprout/testing';
import { CHAT_MODEL } from '../src/answering/answering.service';
import { ModelCatalogService } from '../src/answering/model-catalog.service';
import { type AiResponderConfig } from '../src/config';
import { SpendingService } from '../src/spending/spending.service';
import { SummariesService } from '../src/summaries/summaries.service';
import { type Harness, eventually, exchange, newPhone, startHarness } from './harness';

const MODEL_SUMMARY = {
  summary: 'The gardener asked about yellow spots on tomato leaves; Sprout suggested early blight care.',
  keyOutcomes: ['Likely early blight on the lower leaves'],
  nextSteps: ['Remove spotted leaves', 'Water at the base in the morning'],
};

describe('conversation summaries', () => {
  let h: Harness;
  const conversations = () => h.db.dataSource.getRepository(Conversation);
  const summaries = () => h.responder.app.get(SummariesService);
  /** Makes a conversation look idle: its last message an hour ago. */
  const backdate = (id: string) =>
    h.db.dataSource.query(
      `UPDATE "conversations" SET "last_message_at" = now() - interval '1 hour' WHERE "id" = $1`,
      [id],
    );

  beforeAll(async () => {
    h = await startHarness({
      openai: true,
      config: { conversationIdleTimeoutMs: 2_000, summaryDelayMs: 4_000 },
    });
    h.openai?.replyWith((request: FakeOpenAIChatRequest) => {
      const system = request.messages[0]?.content;
      return typeof system === 'string' && system.startsWith('You summarise')
        ? `Here it is:\n${JSON.stringify(MODEL_SUMMARY)}`
        : 'Those yellow spots look like early blight. Remove the spotted leaves and water at the base in the morning.';
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is re-scheduled by each reply and written by the model once the conversation is idle', async () => {
    const { conversation, reply } = await exchange(
      h,
      'My tomato leaves have yellow spots, what should I do?',
    );
    expect(await summaries().summarize(conversation.id)).toEqual({ outcome: 'not-idle', writtenBy: null });
    const delayed = await h.responder.app.get(JobQueues).queue('conversation.summarize').getDelayed();
    expect(delayed.map((job) => job.data as unknown)).toContainEqual({ conversationId: conversation.id });

    const done = await eventually(async () => {
      const row = await conversations().findOneByOrFail({ id: conversation.id });
      return row.summarizedAt === null ? undefined : row;
    }, 'the summary');
    expect(done).toMatchObject({
      summary: MODEL_SUMMARY.summary,
      keyOutcomes: 'Likely early blight on the lower leaves',
      nextSteps: 'Remove spotted leaves\nWater at the base in the morning',
      sentiment: 'neutral',
    });
    expect(done.topics).toContain('tomatoes');
    expect(done.endedAt?.getTime()).toBe(done.lastMessageAt.getTime());
    expect(done.lastMessageAt.getTime()).toBeGreaterThanOrEqual(reply.createdAt.getTime() - 1_000);
    const calls = await h.db.dataSource
      .getRepository(LlmCall)
      .findBy({ conversationId: conversation.id, purpose: 'summary' });
    expect(calls).toEqual([expect.objectContaining({ tier: 'primary', model: 'gpt-4o-mini', error: null })]);
    expect(calls[0]?.cost).toBeGreaterThan(0);

    expect(await summaries().summarize(conversation.id)).toEqual({ outcome: 'up-to-date', writtenBy: null });
  });

  it('is written by rules without an OpenAI key', async () => {
    const app = h.responder.app;
    const withoutKey = new SummariesService(
      h.db.dataSource,
      app.get(JobQueues),
      app.get(ModelCatalogService),
      app.get(SpendingService),
      null,
      app.get<AiResponderConfig>(CONFIG),
    );
    const phone = newPhone();
    await exchange(h, 'How often should I water my basil?', { phone });
    const { conversation } = await exchange(h, 'And do my tomatoes need more water in July?', { phone });
    await backdate(conversation.id);
    expect(await withoutKey.summarize(conversation.id)).toEqual({
      outcome: 'summarized',
      writtenBy: 'rules',
    });
    const row = await conversations().findOneByOrFail({ id: conversation.id });
    expect(row.summary).toMatch(/^The gardener sent 2 messages about .*tomatoes/);
    expect(row.summary).toContain('Sprout replied 2 times');
    expect(row.keyOutcomes?.split('\n')).toHaveLength(2);
    expect(row.endedAt).not.toBeNull();
    expect(
      await h.db.dataSource
        .getRepository(LlmCall)
        .countBy({ conversationId: conversation.id, purpose: 'summary' }),
    ).toBe(0);
    expect(app.get<ChatModel | null>(CHAT_MODEL)).not.toBeNull();
  });

  it('falls back to rules when the summary model fails, and records the failed call', async () => {
    const { conversation } = await exchange(h, 'When should I prune my apple tree?');
    await backdate(conversation.id);
    h.openai?.failNext({ status: 500 });
    expect(await summaries().summarize(conversation.id)).toEqual({
      outcome: 'summarized',
      writtenBy: 'rules',
    });
    const calls = await h.db.dataSource
      .getRepository(LlmCall)
      .findBy({ conversationId: conversation.id, purpose: 'summary' });
    expect(calls).toEqual([expect.objectContaining({ cost: 0, error: expect.stringMatching(/^server: /) })]);
    expect((await conversations().findOneByOrFail({ id: conversation.id })).summary).toMatch(/^The gardener/);
  });
});
