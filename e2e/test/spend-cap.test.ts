// The daily spending limit is a hard cap on every paid call: replies and summaries (ai-responder)
// and photo analyses (image-processor), in-process on one database and Redis prefix, all against
// the fake OpenAI server (the real openai SDK over HTTP) with every call slow enough that all of
// them are in flight together.
import {
  AiModel,
  DEFAULT_CONVERSATION_IDLE_TIMEOUT_MS,
  LlmCall,
  Message,
  SPENDING_LIMIT_SETTING,
  recordInbound,
  setSetting,
} from '@sprout/domain';
import { Metrics, type ServiceApp } from '@sprout/platform';
import { FakeOpenAI } from '@sprout/testing';
import { PipelineService } from '../../services/ai-responder/src/pipeline/pipeline.service';
import { SummariesService } from '../../services/ai-responder/src/summaries/summaries.service';
import { ImageAnalysisService } from '../../services/image-processor/src/image-analysis/image-analysis.service';
import { OFFLINE_IMAGE_MODEL } from '../../services/image-processor/src/image-analysis/offline/offline-image-analyzer';
import { useServices } from '../src/fixtures';

// Priced on output only, and every answer is longer than any call may write (the fake server cuts
// it at the call's max tokens, one token a word), so each call costs its worst case: a reply (300
// tokens) $0.03, a summary (400) $0.04, a photo (500) $0.05.
const OUTPUT_PRICE_PER_MILLION = 100;
const LIVE = {
  name: 'gpt-4o-mini',
  inputPricePerMillion: 0,
  outputPricePerMillion: OUTPUT_PRICE_PER_MILLION,
  maxTokens: 300,
};
const WORST_CASE = { reply: 300, summary: 400, image: 500 } as const;
const worstCaseOf = (purpose: keyof typeof WORST_CASE): number =>
  (WORST_CASE[purpose] * OUTPUT_PRICE_PER_MILLION) / 1e6;
const LIMIT = 0.25;
const LONG_ANSWER = Array.from({ length: 1_000 }, () => 'mulch').join(' ');
/** The stack's own sample, typed in the console: read in place, never fetched. */
const PHOTO = {
  url: 'http://localhost:8080/api/image-samples/leaf.jpg',
  contentType: 'image/jpeg',
  source: 'admin' as const,
};
const HOUR_MS = 60 * 60 * 1000;

const services = useServices();
let openai: FakeOpenAI;
let responder: ServiceApp;
let processor: ServiceApp;
let phones = 0;

beforeAll(async () => {
  openai = await services.add(FakeOpenAI.start());
  const settings = { openaiApiKey: openai.apiKey, openaiBaseUrl: openai.baseURL };
  responder = await services.responder({ ...settings, llmTimeoutMs: 10_000 }, {});
  processor = await services.imageProcessor(settings, {});
  const ds = services.db.dataSource;
  await ds.getRepository(AiModel).save({ ...LIVE, isLive: true });
  await setSetting(ds.manager, SPENDING_LIMIT_SETTING, LIMIT);
});

/** A text from a new gardener (fictional numbers), `minutesAgo` before now. */
const text = async (content: string, options: { minutesAgo?: number; photo?: boolean } = {}) => {
  phones += 1;
  const record = await recordInbound(services.db.dataSource, {
    from: { phoneNumber: `+1206555${String(phones).padStart(4, '0')}`, isTestUser: false },
    content,
    media: options.photo ? [PHOTO] : [],
    locationHint: null,
    consent: null,
    idleTimeoutMs: DEFAULT_CONVERSATION_IDLE_TIMEOUT_MS,
    at: new Date(Date.now() - (options.minutesAgo ?? 0) * 60_000),
  });
  if (record === null) throw new Error('not recorded');
  return services.db.dataSource.getRepository(Message).findOneByOrFail({ id: record.messageId });
};
/** A conversation gone idle, ready to be summarised. */
const idleConversation = async (content: string): Promise<string> =>
  (await text(content, { minutesAgo: (DEFAULT_CONVERSATION_IDLE_TIMEOUT_MS + HOUR_MS) / 60_000 }))
    .conversationId;

const calls = () => services.db.dataSource.getRepository(LlmCall).find({ order: { createdAt: 'ASC' } });
const counter = async (app: ServiceApp['app'], name: string, labels: Record<string, string>) => {
  const metric = await app.get(Metrics).registry.getSingleMetric(name)?.get();
  return (
    metric?.values.find((v) => Object.entries(labels).every(([k, value]) => v.labels[k] === value))?.value ??
    0
  );
};

it('admits replies, summaries and photo analyses only while spent and reserved are under the limit: 20 at once overshoot by at most one call', async () => {
  // Every call takes 400 ms: all 20 are in flight before the first one settles.
  openai.replyWith(async () => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    return LONG_ANSWER;
  });
  const replies = await Promise.all(
    Array.from({ length: 8 }, (_, i) => text(`How often should I water bed ${i}?`)),
  );
  const summaries = await Promise.all(
    Array.from({ length: 6 }, (_, i) => idleConversation(`Which roses for bed ${i}?`)),
  );
  const photos = await Promise.all(
    Array.from({ length: 6 }, (_, i) => text(`What is wrong with plant ${i}?`, { photo: true })),
  );

  const work: Array<Promise<unknown>> = [];
  for (let i = 0; i < 8; i += 1) {
    work.push(responder.app.get(PipelineService).reply(replies[i]!.id));
    if (i < 6) {
      work.push(responder.app.get(SummariesService).summarize(summaries[i]!));
      work.push(processor.app.get(ImageAnalysisService).analyze({ messageId: photos[i]!.id, mediaIndex: 0 }));
    }
  }
  await Promise.all(work);

  const all = await calls();
  const paid = all.filter((c) => c.cost > 0);
  expect(openai.completions).toHaveLength(paid.length);
  expect(paid.length).toBeGreaterThan(0);
  // Without reservations all 20 would have been admitted: none had settled when the others asked.
  expect(paid.length).toBeLessThan(20);
  for (const call of paid) expect(call.cost).toBeLessThanOrEqual(worstCaseOf(call.purpose as 'reply'));

  // Reached, and overshot by at most the worst case of one admitted call.
  const total = paid.reduce((sum, c) => sum + c.cost, 0);
  expect(total).toBeGreaterThanOrEqual(LIMIT);
  expect(total).toBeLessThanOrEqual(
    LIMIT + Math.max(...paid.map((c) => worstCaseOf(c.purpose as 'reply'))) + 1e-9,
  );

  // Every refused call still got its answer without a model: replies from templates, summaries from
  // rules, photos from the offline analyser.
  const paidFor = (purpose: string) => paid.filter((c) => c.purpose === purpose).length;
  const templates = all.filter((c) => c.tier === 'template');
  expect(templates.filter((c) => c.purpose === 'reply')).toHaveLength(8 - paidFor('reply'));
  expect(templates.filter((c) => c.purpose === 'image')).toHaveLength(6 - paidFor('image'));
  expect(templates.every((c) => c.model === null && c.cost === 0)).toBe(true);
  const offlinePhotos = await services.db.dataSource
    .getRepository(Message)
    .countBy({ modelUsed: OFFLINE_IMAGE_MODEL });
  expect(offlinePhotos).toBe(6 - paidFor('image'));
  const [summarised] = await services.db.dataSource.query<Array<{ n: number }>>(
    `SELECT count(*)::int AS n FROM conversations WHERE id = ANY($1) AND summary IS NOT NULL`,
    [summaries],
  );
  expect(summarised?.n).toBe(6);
  const refused = (['reply', 'summary', 'image'] as const).map((purpose) =>
    counter(purpose === 'image' ? processor.app : responder.app, 'sprout_spend_calls_refused_total', {
      purpose,
    }),
  );
  expect((await Promise.all(refused)).reduce((a, b) => a + b, 0)).toBe(20 - paid.length);

  // Nothing is left reserved once every call has settled.
  expect(await services.db.dataSource.query(`SELECT count(*)::int AS n FROM spend_reservations`)).toEqual([
    { n: 0 },
  ]);
});

it('past the limit summarises by rules and describes photos offline, calling no model, and has announced 80% and 100% once', async () => {
  openai.reset();
  openai.replyWith(LONG_ANSWER);
  const before = (await calls()).length;

  const conversationId = await idleConversation('When should I divide my irises?');
  expect(await responder.app.get(SummariesService).summarize(conversationId)).toEqual({
    outcome: 'summarized',
    writtenBy: 'rules',
  });
  const photo = await text('Is this leaf healthy?', { photo: true });
  const analysed = await processor.app
    .get(ImageAnalysisService)
    .analyze({ messageId: photo.id, mediaIndex: 0 });
  expect(analysed).toMatchObject({ status: 'processed', model: OFFLINE_IMAGE_MODEL, cost: 0, tokensUsed: 0 });
  expect(analysed.analysis).toMatch(/^Offline photo check: 96x72 JPEG/);
  expect(await services.db.dataSource.getRepository(Message).findOneByOrFail({ id: photo.id })).toMatchObject(
    {
      imageProcessed: true,
      imageAnalysis: analysed.analysis,
      modelUsed: OFFLINE_IMAGE_MODEL,
      cost: 0,
    },
  );

  expect(openai.completions).toHaveLength(0);
  // The photo's row says no model was called (as a template reply's does); a rules summary has none.
  expect((await calls()).slice(before)).toEqual([
    expect.objectContaining({
      purpose: 'image',
      tier: 'template',
      model: null,
      cost: 0,
      messageId: photo.id,
    }),
  ]);

  // 80% and 100% crossed: each announced once across both services (calls settling together do
  // not see each other's cost, so 80% may first show at the next reservation).
  for (const threshold of ['80', '100']) {
    const seen =
      (await counter(responder.app, 'sprout_spend_threshold_crossed_total', { threshold })) +
      (await counter(processor.app, 'sprout_spend_threshold_crossed_total', { threshold }));
    expect({ threshold, seen }).toEqual({ threshold, seen: 1 });
  }
});
