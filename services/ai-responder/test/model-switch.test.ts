// A change made in Model Management reaches the very next reply on every replica: the
// api-gateway commits it and announces it on the Redis channel; each ai-responder drops its copy
// of ai_models. Here the change is written and announced as the gateway does.
import { AiModel, LlmCall, MODEL_CATALOG_CHANNEL, replyIdFor } from '@sprout/domain';
import { costOf } from '@sprout/llm';
import { Redis } from 'ioredis';
import { type Harness, type Responder, newPhone, startHarness, storeInbound } from './harness';
import { PipelineService } from '../src/pipeline/pipeline.service';

describe('a model change takes effect on the next reply', () => {
  let h: Harness;
  let second: Responder;
  let publisher: Redis;
  const fake = () => {
    if (h.openai === undefined) throw new Error('no fake OpenAI');
    return h.openai;
  };
  const models = () => h.db.dataSource.getRepository(AiModel);

  beforeAll(async () => {
    h = await startHarness({ openai: true, config: { llmTimeoutMs: 1_500 } });
    second = await h.startResponder();
    publisher = new Redis(h.redis.url);
    await models().save([
      { name: 'gpt-4o-mini', inputPricePerMillion: 0.15, outputPricePerMillion: 0.6, isLive: true },
      { name: 'gpt-4.1-mini', inputPricePerMillion: 0.4, outputPricePerMillion: 1.6, isFallback: true },
      { name: 'gpt-4.1-nano', inputPricePerMillion: 0.1, outputPricePerMillion: 0.4 },
    ]);
  });
  afterAll(async () => {
    publisher?.disconnect();
    await h?.close();
  });
  beforeEach(() => fake().reset());

  /** Writes a change and announces it, as api-gateway's ModelsService does once it has committed. */
  const change = async (write: () => Promise<unknown>): Promise<void> => {
    await write();
    const receivers = await publisher.publish(
      `${h.redis.prefix}:${MODEL_CATALOG_CHANNEL}`,
      String(Date.now()),
    );
    // Both replicas listen; delivery is a matter of milliseconds.
    expect(receivers).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 50));
  };

  /** One reply on the given replica: the models asked, and the reply's llm_calls row. */
  const replyOn = async (responder: Responder) => {
    const inbound = await storeInbound(h.db, 'When should I plant garlic?', { phone: newPhone() });
    fake().reset();
    await responder.app.get(PipelineService).reply(inbound.id);
    const call = await h.db.dataSource
      .getRepository(LlmCall)
      .findOneByOrFail({ messageId: replyIdFor(inbound.id) });
    return { asked: fake().completions.map((c) => c.model), call };
  };

  it('switches the live model on every replica, kept models included', async () => {
    // Both replicas have read (and keep) the catalog.
    expect((await replyOn(h.responder)).asked).toEqual(['gpt-4o-mini']);
    expect((await replyOn(second)).asked).toEqual(['gpt-4o-mini']);

    await change(async () => {
      await models().update({ name: 'gpt-4o-mini' }, { isLive: false });
      await models().update({ name: 'gpt-4.1-nano' }, { isLive: true });
    });
    expect((await replyOn(h.responder)).asked).toEqual(['gpt-4.1-nano']);
    expect((await replyOn(second)).asked).toEqual(['gpt-4.1-nano']);
  });

  it('prices the next reply with the new prices', async () => {
    await change(() =>
      models().update({ name: 'gpt-4.1-nano' }, { inputPricePerMillion: 7, outputPricePerMillion: 9 }),
    );
    for (const responder of [h.responder, second]) {
      const { call } = await replyOn(responder);
      expect(call.cost).toBeCloseTo(
        costOf(
          { inputPricePerMillion: 7, outputPricePerMillion: 9 },
          call.promptTokens,
          call.completionTokens,
        ),
        6,
      );
    }
  });

  it('moves to the new fallback model when the live one fails', async () => {
    await change(async () => {
      await models().update({ name: 'gpt-4.1-mini' }, { isFallback: false });
      await models().update({ name: 'gpt-4o-mini' }, { isFallback: true });
    });
    for (const responder of [h.responder, second]) {
      const inbound = await storeInbound(h.db, 'Why are my tomato leaves yellow?', { phone: newPhone() });
      fake().reset();
      fake().failNext({ status: 500 });
      await responder.app.get(PipelineService).reply(inbound.id);
      expect(fake().completions.map((c) => c.model)).toEqual(['gpt-4.1-nano', 'gpt-4o-mini']);
    }
  });

  it('follows a change of max tokens', async () => {
    await change(() => models().update({ name: 'gpt-4.1-nano' }, { maxTokens: 77 }));
    await replyOn(second);
    expect(fake().completions[0]?.max_completion_tokens).toBe(77);
  });
});
