import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { LlmCall, Message, SpendLedger } from '@sprout/domain';
import {
  HostNotAllowedError,
  IMAGE_SAMPLES_DIR,
  JobQueues,
  Metrics,
  createLogger,
  hostPortOf,
  loadConfig,
} from '@sprout/platform';
import {
  FakeOpenAI,
  type FakeOpenAIChatRequest,
  addUserWithConversation,
  startOnStores,
  useClosable,
} from '@sprout/testing';
import type { DataSource } from 'typeorm';
import { createApp } from '../src/app';
import { type ImageProcessorConfig, imageProcessorConfig, TWILIO_MEDIA_HOSTS } from '../src/config';
import {
  type AnalyzedMedia,
  IMAGE_ONLY_QUESTION,
  type ImageAnalysisResult,
  ImageAnalysisService,
} from '../src/image-analysis/image-analysis.service';
import { ImageSource } from '../src/image-analysis/image-source';
import {
  OFFLINE_IMAGE_MODEL,
  OFFLINE_IMAGE_QUESTION,
  OfflineImageAnalyzer,
} from '../src/image-analysis/offline/offline-image-analyzer';
import { VISION_MODEL, visionModelProvider } from '../src/image-analysis/vision-model';

const JPEG = Buffer.from(
  'ffd8ffe000104a46494600010100000100010000ffdb004300080606070605080707070909080a0c140d0c0b0b0c1912',
  'hex',
);
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
const LEAF_JPG = readFileSync(join(IMAGE_SAMPLES_DIR, 'leaf.jpg'));
const ACCOUNT_SID = `AC${'1'.repeat(32)}`;
const AUTH_TOKEN = 'image-test-auth-token';

interface Hit {
  server: 'twilio' | 'public';
  path: string;
  authorization: string | undefined;
}

const startServer = async (handler: http.RequestListener): Promise<{ server: http.Server; url: string }> => {
  const server = http.createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};

describe('image analysis', () => {
  let openai: FakeOpenAI;
  let analysis: ImageAnalysisService;
  let ds: DataSource;
  let twilioMedia: { server: http.Server; url: string };
  let publicImages: { server: http.Server; url: string };
  const hits: Hit[] = [];
  let userId: string;
  let conversationId: string;

  beforeAll(async () => {
    // A public image host, and a "Twilio" media host that wants basic auth and redirects to storage.
    publicImages = await startServer((req, res) => {
      hits.push({ server: 'public', path: req.url ?? '', authorization: req.headers.authorization });
      if (req.url === '/plant.jpg') {
        res.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG);
      } else if (req.url === '/leaf-sample.jpg') {
        res.writeHead(200, { 'content-type': 'image/jpeg' }).end(LEAF_JPG);
      } else if (req.url === '/leaf.png') {
        res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      } else if (req.url === '/page.html') {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html>not an image</html>');
      } else res.writeHead(404).end();
    });
    twilioMedia = await startServer((req, res) => {
      hits.push({ server: 'twilio', path: req.url ?? '', authorization: req.headers.authorization });
      const expected = `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}`;
      if (req.headers.authorization !== expected) {
        res.writeHead(401).end();
        return;
      }
      res.writeHead(307, { location: `${publicImages.url}/plant.jpg` }).end();
    });
  });

  const h = useClosable(() =>
    startOnStores(async (stores) => {
      openai = stores.adopt(await FakeOpenAI.start());
      return createApp(
        {
          ...stores.config,
          port: 0,
          openaiApiKey: openai.apiKey,
          openaiBaseUrl: openai.baseURL,
          twilioAccountSid: ACCOUNT_SID,
          twilioAuthToken: AUTH_TOKEN,
          twilioApiBaseUrl: twilioMedia.url,
          // The "Twilio" host is the sandbox endpoint already; its storage is one more of them.
          imageFetchSandboxMediaHosts: [hostPortOf(publicImages.url)],
        },
        {},
      );
    }),
  );

  beforeAll(async () => {
    ds = h.ds;
    analysis = h.service.app.get(ImageAnalysisService);
    ({ userId, conversationId } = await addUserWithConversation(ds, '+15035550142'));
  });

  afterAll(() => {
    for (const s of [twilioMedia, publicImages]) {
      s?.server.close();
    }
  });

  beforeEach(async () => {
    openai.reset();
    hits.length = 0;
    await ds.query('DELETE FROM "llm_calls"');
    await ds.query('DELETE FROM "ai_models"');
  });

  const inbound = async (
    urls: string[],
    content = 'What is wrong with my tomato leaves?',
    direction = 'inbound',
    source?: 'admin',
  ) => {
    const media = urls.map((url) => ({ url, contentType: 'image/jpeg', ...(source ? { source } : {}) }));
    const [row] = await ds.query<Array<{ id: string }>>(
      `INSERT INTO "messages" ("user_id", "conversation_id", "direction", "content", "status", "media")
       VALUES ($1, $2, $3, $4, 'received', $5::jsonb) RETURNING "id"`,
      [userId, conversationId, direction, content, JSON.stringify(media)],
    );
    return row!.id;
  };
  const message = (id: string): Promise<Message> => ds.getRepository(Message).findOneByOrFail({ id });
  const imageCalls = (messageId: string): Promise<LlmCall[]> =>
    ds.getRepository(LlmCall).findBy({ messageId, purpose: 'image' });
  const analyzeByQueue = (messageId: string, mediaIndex = 0): Promise<ImageAnalysisResult> =>
    h.service.app.get(JobQueues).enqueueAndWait('image.analyze', { messageId, mediaIndex }, 20_000);

  it('analyses a Twilio media image through the image.analyze queue and records it', async () => {
    let seen: FakeOpenAIChatRequest | undefined;
    openai.replyWith((request) => {
      seen = request;
      return 'Those yellow lower leaves look like early blight. Remove them and water at the base.';
    });
    const id = await inbound([
      `${twilioMedia.url}/2010-04-01/Accounts/${ACCOUNT_SID}/Messages/MM1/Media/ME1`,
    ]);

    const result = await analyzeByQueue(id);

    expect(result).toMatchObject({
      status: 'processed',
      contentType: 'image/jpeg',
      model: 'gpt-4o-mini',
      error: null,
    });
    expect(result.tokensUsed).toBeGreaterThan(0);
    expect(result.cost).toBeGreaterThan(0);
    // Basic auth went to the Twilio origin only; the redirect to storage went without it.
    expect(hits.map((h) => [h.server, h.authorization !== undefined])).toEqual([
      ['twilio', true],
      ['public', false],
    ]);
    const user = seen?.messages.find((m) => m.role === 'user');
    expect(user?.content).toEqual([
      { type: 'text', text: 'What is wrong with my tomato leaves?' },
      { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${JPEG.toString('base64')}` } },
    ]);

    const saved = await message(id);
    expect(saved).toMatchObject({
      imageProcessed: true,
      imageContentType: 'image/jpeg',
      imageAnalysis: 'Those yellow lower leaves look like early blight. Remove them and water at the base.',
      imageProcessingError: null,
      tokenUsage: result.tokensUsed,
      cost: result.cost,
      modelUsed: 'gpt-4o-mini',
    });
    const [call] = await imageCalls(id);
    expect(call).toMatchObject({
      purpose: 'image',
      model: 'gpt-4o-mini',
      tier: 'primary',
      error: null,
      userId,
      conversationId,
      totalTokens: result.tokensUsed,
      cost: result.cost,
    });
  });

  it('is idempotent: an analysed media item is skipped', async () => {
    const id = await inbound([`${publicImages.url}/plant.jpg`]);
    const first = await analysis.analyze({ messageId: id, mediaIndex: 0 });
    const before = await message(id);
    const second = await analysis.analyze({ messageId: id, mediaIndex: 0 });

    expect(first.status).toBe('processed');
    expect(second.status).toBe('skipped');
    expect(openai.completions).toHaveLength(1);
    expect(await imageCalls(id)).toHaveLength(1);
    const after = await message(id);
    expect(after.tokenUsage).toBe(before.tokenUsage);
    expect(after.imageAnalysis).toBe(before.imageAnalysis);
  });

  it('uses the live model and its prices', async () => {
    await ds.query(
      `INSERT INTO "ai_models" ("name", "input_price_per_million", "output_price_per_million", "is_live", "is_active")
       VALUES ('gpt-4o', 1000, 2000, true, true)`,
    );
    const id = await inbound([`${publicImages.url}/leaf.png`], '');
    const result = await analysis.analyze({ messageId: id, mediaIndex: 0 });

    const request = openai.completions[0];
    expect(request?.model).toBe('gpt-4o');
    const text = request?.messages.find((m) => m.role === 'user')?.content;
    expect(Array.isArray(text) ? text[0] : undefined).toEqual({ type: 'text', text: IMAGE_ONLY_QUESTION });
    const [call] = await imageCalls(id);
    expect(call?.cost).toBeCloseTo(
      (call!.promptTokens * 1000 + call!.completionTokens * 2000) / 1_000_000,
      6,
    );
    expect(result).toMatchObject({ model: 'gpt-4o', contentType: 'image/png' });
  });

  it.each([
    ['cloud metadata', 'http://169.254.169.254/latest/meta-data/'],
    ['a private network', 'http://10.0.0.5/plant.jpg'],
    ['IPv6 loopback', 'http://[::1]/plant.jpg'],
    ['a decimal IP form of loopback outside the allow-list', 'http://2130706434/plant.jpg'],
  ])('refuses to fetch from %s and records the failure without failing the job', async (_label, url) => {
    const id = await inbound([url]);
    const result = await analyzeByQueue(id);

    expect(result.status).toBe('failed');
    expect(result.error).toMatch(/Refused to fetch/);
    expect(openai.requests).toHaveLength(0);
    const saved = await message(id);
    expect(saved.imageProcessed).toBe(false);
    expect(saved.imageProcessingError).toMatch(/Could not fetch the image: Refused to fetch/);
    expect((saved.media[0] as AnalyzedMedia).analyzedAt).toBeDefined();
  });

  it('fetches from nothing but Twilio media hosts by default, so not 127.0.0.1 either', async () => {
    const defaults = loadConfig(imageProcessorConfig, {});
    expect(defaults.imageFetchAllowedHosts).toEqual(TWILIO_MEDIA_HOSTS.split(','));
    expect(defaults.imageFetchSandboxMediaHosts).toEqual([]);
    const source = new ImageSource(defaults);
    await expect(source.fetch({ url: `${publicImages.url}/plant.jpg` })).rejects.toBeInstanceOf(
      HostNotAllowedError,
    );
    expect(hits).toHaveLength(0);
  });

  it('records a content type that is not an image', async () => {
    const id = await inbound([`${publicImages.url}/page.html`]);
    const result = await analysis.analyze({ messageId: id, mediaIndex: 0 });
    expect(result.status).toBe('failed');
    expect((await message(id)).imageProcessingError).toMatch(/Content type text\/html is not allowed/);
    expect(openai.requests).toHaveLength(0);
  });

  it('without an OpenAI key describes the photo offline and records it like a model answer', async () => {
    const config = loadConfig(imageProcessorConfig, {}, { ...h.service.config, openaiApiKey: undefined });
    const factory = (visionModelProvider as { useFactory: (c: ImageProcessorConfig) => unknown }).useFactory;
    expect((visionModelProvider as { provide: symbol }).provide).toBe(VISION_MODEL);
    const model = factory(config);
    expect(model).toBeInstanceOf(OfflineImageAnalyzer);
    const keyless = new ImageAnalysisService(
      ds,
      new ImageSource(config),
      new SpendLedger(ds, { timeZone: 'UTC' }),
      model as OfflineImageAnalyzer,
      config,
      createLogger({ name: 'image-test', level: 'silent' }),
      new Metrics('image-test', false),
    );
    const id = await inbound([`${publicImages.url}/leaf-sample.jpg`]);

    const result = await keyless.analyze({ messageId: id, mediaIndex: 0 });

    const analysisText = `Offline photo check: 96x72 JPEG, 1.4 KB. About 85% green foliage, 0% yellow or brown, 0% dark spots; well lit. The leaves look mostly green, a good sign. ${OFFLINE_IMAGE_QUESTION}`;
    expect(result).toMatchObject({
      status: 'processed',
      analysis: analysisText,
      contentType: 'image/jpeg',
      tokensUsed: 0,
      cost: 0,
      model: OFFLINE_IMAGE_MODEL,
      error: null,
    });
    expect(openai.requests).toHaveLength(0);
    expect(await message(id)).toMatchObject({
      imageProcessed: true,
      imageContentType: 'image/jpeg',
      imageAnalysis: analysisText,
      imageProcessingError: null,
      tokenUsage: 0,
      cost: 0,
      modelUsed: OFFLINE_IMAGE_MODEL,
    });
    const [call] = await imageCalls(id);
    expect(call).toMatchObject({ model: OFFLINE_IMAGE_MODEL, totalTokens: 0, cost: 0, error: null });
    expect(call?.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('analyses a console image offline in the default configuration: the stack sample is read in place', async () => {
    // No variables at all: no OpenAI key, Twilio's media hosts, PUBLIC_BASE_URL http://localhost:8080.
    const defaults = loadConfig(imageProcessorConfig, {});
    expect(defaults.openaiApiKey).toBeUndefined();
    const model = (visionModelProvider as { useFactory: (c: ImageProcessorConfig) => unknown }).useFactory(
      defaults,
    ) as OfflineImageAnalyzer;
    const keyless = new ImageAnalysisService(
      ds,
      new ImageSource(defaults),
      new SpendLedger(ds, { timeZone: 'UTC' }),
      model,
      defaults,
      createLogger({ name: 'image-test', level: 'silent' }),
      new Metrics('image-test', false),
    );
    const sample = 'http://localhost:8080/api/image-samples/leaf.jpg';

    // Typed in the console (image test, simulator): the admin URL policy.
    const typed = await inbound([sample], 'What can you tell me about this plant?', 'inbound', 'admin');
    const result = await keyless.analyze({ messageId: typed, mediaIndex: 0 });
    expect(result).toMatchObject({
      status: 'processed',
      model: OFFLINE_IMAGE_MODEL,
      contentType: 'image/jpeg',
    });
    expect(result.analysis).toMatch(/^Offline photo check: 96x72 JPEG, 1\.4 KB\. About 85% green foliage/);
    expect((await message(typed)).imageAnalysis).toBe(result.analysis);

    // The same URL as an MMS's media: Twilio's hosts only, refused before DNS.
    const mms = await inbound([sample]);
    const refused = await keyless.analyze({ messageId: mms, mediaIndex: 0 });
    expect(refused).toMatchObject({ status: 'failed', analysis: null });
    expect(refused.error).toMatch(/Refused to fetch localhost:8080: not an allowed host/);
    expect(hits).toHaveLength(0);
  });

  it('retries a passing model failure, records it on the final attempt, and succeeds later', async () => {
    const id = await inbound([`${publicImages.url}/plant.jpg`]);

    openai.failNext({ status: 500 });
    await expect(analysis.analyze({ messageId: id, mediaIndex: 0 }, { final: false })).rejects.toThrow();
    expect((await message(id)).imageProcessed).toBeNull();

    openai.failNext({ status: 503 });
    await expect(analysis.analyze({ messageId: id, mediaIndex: 0 }, { final: true })).rejects.toThrow();
    const failed = await message(id);
    expect(failed.imageProcessed).toBe(false);
    expect(failed.imageProcessingError).toMatch(/^Image analysis failed/);

    const calls = await imageCalls(id);
    expect(calls).toHaveLength(2);
    expect(calls.every((c) => c.error !== null)).toBe(true);

    const retried = await analysis.analyze({ messageId: id, mediaIndex: 0 });
    expect(retried.status).toBe('processed');
    expect(await message(id)).toMatchObject({ imageProcessed: true, imageProcessingError: null });
  });

  it('records a rejected model request as final', async () => {
    const id = await inbound([`${publicImages.url}/plant.jpg`]);
    openai.failNext({ status: 400, code: 'invalid_image_format', message: 'Invalid image.' });
    const result = await analysis.analyze({ messageId: id, mediaIndex: 0 }, { final: false });
    expect(result.status).toBe('failed');
    expect((await message(id)).imageProcessingError).toBe('Image analysis failed: 400 Invalid image.');
  });

  it('adds up several images of one message', async () => {
    openai.replyWith((request) => {
      const user = request.messages.find((m) => m.role === 'user');
      const image = Array.isArray(user?.content)
        ? user.content.find((p) => p.type === 'image_url')
        : undefined;
      return image?.type === 'image_url' && image.image_url.url.startsWith('data:image/png')
        ? 'A healthy basil leaf.'
        : 'A tomato plant.';
    });
    const id = await inbound([`${publicImages.url}/plant.jpg`, `${publicImages.url}/leaf.png`]);
    const [second, first] = await Promise.all([
      analysis.analyze({ messageId: id, mediaIndex: 1 }),
      analysis.analyze({ messageId: id, mediaIndex: 0 }),
    ]);

    const saved = await message(id);
    expect(saved.imageProcessed).toBe(true);
    expect(saved.imageAnalysis?.split('\n\n').sort()).toEqual([
      'Image 1: A tomato plant.',
      'Image 2: A healthy basil leaf.',
    ]);
    expect(saved.tokenUsage).toBe(first.tokensUsed + second.tokensUsed);
    expect(saved.media.every((m) => (m as AnalyzedMedia).analyzedAt !== undefined)).toBe(true);
  });

  it('fails jobs that point at no inbound media item, without retrying', async () => {
    const outbound = await inbound([`${publicImages.url}/plant.jpg`], 'Here is a photo', 'outbound');
    await expect(analyzeByQueue(outbound)).rejects.toThrow(/is not inbound/);
    const id = await inbound([`${publicImages.url}/plant.jpg`]);
    await expect(analyzeByQueue(id, 3)).rejects.toThrow(/has no media item 3/);
    await expect(analyzeByQueue('5b0f1c2a-3d4e-4f5a-8b6c-7d8e9f0a1b2c')).rejects.toThrow(/does not exist/);
  });
});
