// Image monitoring API against real Postgres and Redis. The analysis itself is image-processor's
// (services never import each other): here a worker on the real image.analyze queue plays its part
// of the contract, fetching each item under the policy image-processor picks for it (the same
// library function, with the default settings) and recording the outcome on the message;
// services/image-processor/test runs the real analyser.
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type {
  ConversationMessage,
  ImageMessageDto,
  ImageProcessingTestResponse,
  ImageStats,
  ImageValidationTestResponse,
  SimulatorConversationResponse,
} from '@sprout/contracts';
import { IMAGE_TEST_DEFAULT_MESSAGE, IMAGE_TEST_DEFAULT_PHONE } from '@sprout/contracts';
import { LlmCall, Message, recordInbound } from '@sprout/domain';
import {
  type RunningWorkers,
  SAMPLE_REDIRECT_TARGET,
  createLogger,
  defineConfig,
  fetchImage,
  loadConfig,
  mediaFetchPolicy,
  publicBaseUrlField,
  startWorkers,
} from '@sprout/platform';
import { PRIVATE_TEST_URL, REAL_USER_PHONE } from '../src/images/image-tests.service';
import { login, startGateway, type TestGateway, expectStatusMessage } from './support/gateway';

let gw: TestGateway;
let app: NestFastifyApplication;
let cookie: string;
let worker: RunningWorkers;
let origin: string;

/** image-processor's fetch settings when no variable is set. */
const DEFAULT_SETTINGS = {
  publicBaseUrl: loadConfig(defineConfig({ publicBaseUrl: publicBaseUrlField }), {}).publicBaseUrl,
  mediaHosts: ['api.twilio.com', 'media.twiliocdn.com', '*.twiliocdn.com'],
  sandboxEndpoints: [],
};
/** The stack's own sample at the default public origin (nothing listens there in this test). */
const DEFAULT_SAMPLE = `${DEFAULT_SETTINGS.publicBaseUrl}/api/image-samples/leaf.jpg`;

/** Stand-in image-processor: fetch and validate the picture, then record it as analysed or failed. */
const startAnalyser = async (): Promise<RunningWorkers> =>
  startWorkers({
    connection: gw.redis.connection,
    prefix: gw.redis.prefix,
    owns: ['image.analyze'],
    logger: createLogger({ name: 'test-analyser', level: 'silent' }),
    handlers: {
      'image.analyze': async ({ messageId, mediaIndex }) => {
        const repository = gw.db.dataSource.getRepository(Message);
        const message = await repository.findOneByOrFail({ id: messageId });
        const media = message.media[mediaIndex];
        if (media === undefined) throw new Error('no media');
        const base = {
          messageId,
          mediaIndex,
          tokensUsed: 0,
          cost: 0,
          model: null,
          processingTime: 5,
          analysis: null,
          contentType: null,
        };
        try {
          const { contentType } = await fetchImage(media.url, {
            ...mediaFetchPolicy(media, DEFAULT_SETTINGS),
            timeoutMs: 5_000,
          });
          await repository.update(
            { id: messageId },
            {
              imageProcessed: true,
              imageContentType: contentType,
              imageAnalysis: 'A healthy leaf.',
              tokenUsage: 850,
              cost: 0.0013,
              modelUsed: 'gpt-4o-mini',
            },
          );
          return {
            ...base,
            status: 'processed' as const,
            analysis: 'A healthy leaf.',
            contentType,
            tokensUsed: 850,
            cost: 0.0013,
            model: 'gpt-4o-mini',
            error: null,
          };
        } catch (error) {
          if (!(error instanceof Error)) throw error;
          const text = `Could not fetch the image: ${error.message}`;
          await repository.update({ id: messageId }, { imageProcessed: false, imageProcessingError: text });
          return { ...base, status: 'failed' as const, error: text };
        }
      },
    },
  });

beforeAll(async () => {
  gw = await startGateway();
  app = gw.app;
  cookie = await login(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address() as { port: number };
  origin = `http://127.0.0.1:${address.port}`;
  worker = await startAnalyser();
});
afterAll(async () => {
  await worker?.close();
  await gw?.close();
});

const call = async (method: 'GET' | 'POST', url: string, payload?: object, as: string | null = cookie) =>
  app.inject({
    method,
    url,
    headers: as === null ? {} : { cookie: as },
    ...(payload === undefined ? {} : { payload }),
  });

describe('access', () => {
  it.each([
    ['GET', '/api/admin/image-messages'],
    ['GET', '/api/admin/image-stats'],
    ['POST', '/api/test/image-processing'],
    ['POST', '/api/test/image-validation'],
  ] as const)('%s %s needs an admin session', async (method, url) => {
    const res = await call(method, url, method === 'POST' ? {} : undefined, null);
    expect(res.statusCode).toBe(401);
  });

  it('serves the samples to anyone, with their types', async () => {
    const jpeg = await call('GET', '/api/image-samples/leaf.jpg', undefined, null);
    expect(jpeg.statusCode).toBe(200);
    expect(jpeg.headers['content-type']).toBe('image/jpeg');
    expect(jpeg.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const png = await call('GET', '/api/image-samples/leaf.png', undefined, null);
    expect(png.headers['content-type']).toBe('image/png');
    expect((await call('GET', '/api/image-samples/missing.jpg', undefined, null)).statusCode).toBe(404);
    expect((await call('GET', '/api/image-samples/other.jpg', undefined, null)).statusCode).toBe(400);
    const redirect = await call('GET', '/api/image-samples/redirect-to-private.jpg', undefined, null);
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers.location).toBe(SAMPLE_REDIRECT_TARGET);
  });
});

describe('POST /api/test/image-processing', () => {
  it('400 "Please provide an image URL" for a missing, empty or non-http URL', async () => {
    for (const payload of [
      {},
      { imageUrl: '' },
      { imageUrl: 'not a url' },
      { imageUrl: 'ftp://x.example/a.jpg' },
    ]) {
      const res = await call('POST', '/api/test/image-processing', payload);
      expectStatusMessage(res, 400, 'Please provide an image URL');
    }
  });

  it('400 for a phone number that is not E.164', async () => {
    const res = await call('POST', '/api/test/image-processing', {
      imageUrl: `${origin}/api/image-samples/leaf.jpg`,
      phoneNumber: '555-0199',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^phoneNumber: /);
  });

  it('analyses the stack own JPEG in the default configuration, read in place; answers tokens and cost', async () => {
    // Nothing listens on the default public origin here, and loopback is never fetched for a URL
    // typed in the console: the picture can only have been read in place.
    const res = await call('POST', '/api/test/image-processing', { imageUrl: DEFAULT_SAMPLE });
    expect(res.statusCode).toBe(200);
    const body = res.json<ImageProcessingTestResponse>();
    expect(body.success).toBe(true);
    expect(body.imageProcessing).toMatchObject({
      analysis: 'A healthy leaf.',
      tokensUsed: 850,
      cost: 0.0013,
      model: 'gpt-4o-mini',
    });
    // Recorded as the default phone's (test user's) MMS with the default question.
    const message = await gw.db.dataSource
      .getRepository(Message)
      .findOneOrFail({ where: { id: body.messageId }, relations: { user: true } });
    expect(message.content).toBe(IMAGE_TEST_DEFAULT_MESSAGE);
    expect(message.user?.phoneNumber).toBe(IMAGE_TEST_DEFAULT_PHONE);
    expect(message.user?.isTestUser).toBe(true);
    expect(message.isTestUser).toBe(true);
    // Typed in the console: fetched under the admin URL policy, not the MMS one.
    expect(message.media).toEqual([{ url: DEFAULT_SAMPLE, contentType: 'image/jpeg', source: 'admin' }]);
  });

  it('422 with a clear message when the fetch policy refuses a private address; the error is recorded', async () => {
    const res = await call('POST', '/api/test/image-processing', {
      imageUrl: PRIVATE_TEST_URL,
      messageText: 'Is this blight?',
      phoneNumber: '+15555550142',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/^Could not fetch the image: .*10\.0\.0\.1/);
    const [row] = await gw.db.dataSource.query<
      { image_processed: boolean; image_processing_error: string }[]
    >(`SELECT image_processed, image_processing_error FROM messages WHERE content = 'Is this blight?'`);
    expect(row?.image_processed).toBe(false);
    expect(row?.image_processing_error).toBe(res.json().message);
  });

  it('409 when the phone belongs to a real user (nothing recorded)', async () => {
    await gw.db.dataSource.query(`INSERT INTO users (phone_number) VALUES ('+15035550111')`);
    const res = await call('POST', '/api/test/image-processing', {
      imageUrl: `${origin}/api/image-samples/leaf.png`,
      phoneNumber: '+15035550111',
    });
    expectStatusMessage(res, 409, REAL_USER_PHONE);
  });
});

describe('POST /api/test/image-validation', () => {
  it('runs the eight cases: both pictures accepted, every refusal for its reason', async () => {
    const res = await call('POST', '/api/test/image-validation');
    expect(res.statusCode).toBe(200);
    const body = res.json<ImageValidationTestResponse>();
    expect(body.total).toBe(8);
    expect(body.passed).toBe(8);
    const byName = Object.fromEntries(body.testResults.map((r) => [r.name, r]));
    expect(byName['JPEG served by the stack']).toMatchObject({
      imageUrl: DEFAULT_SAMPLE,
      expectedValid: true,
      actualValid: true,
      success: true,
      contentType: 'image/jpeg',
      reason: null,
    });
    expect(byName['PNG served by the stack']).toMatchObject({ actualValid: true, contentType: 'image/png' });
    const reasons: Record<string, string> = {
      'Not an image (HTML page)': 'CONTENT_TYPE_NOT_ALLOWED',
      'Oversized file (over 5 MB)': 'TOO_LARGE',
      'Private address': 'BLOCKED_ADDRESS',
      'Not found (404)': 'HTTP_STATUS',
      'Redirect to a private address': 'BLOCKED_ADDRESS',
      'URL with credentials': 'INVALID_URL',
    };
    for (const [name, code] of Object.entries(reasons)) {
      expect(byName[name]).toMatchObject({ expectedValid: false, actualValid: false, success: true });
      expect(byName[name]?.reason).toMatch(new RegExp(`^${code}: `));
    }
    expect(byName['Redirect to a private address']?.reason).toContain('169.254.169.254');
  });

  it('needs no network: a gateway that is not listening runs it too, its samples read in place', async () => {
    const other = await gw.startAnother();
    const otherCookie = await login(other);
    const res = await other.inject({
      method: 'POST',
      url: '/api/test/image-validation',
      headers: { cookie: otherCookie },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<ImageValidationTestResponse>()).toMatchObject({ passed: 8, total: 8 });
  });
});

describe('GET /api/admin/image-messages and /api/admin/image-stats', () => {
  it('lists image messages newest first with their figures, and totals them', async () => {
    // A processed MMS with its recorded model call, a failed one, and a text message (not listed).
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    // An inbound message from `phoneNumber`, with a picture when `imageUrl` is given.
    const inbound = (phoneNumber: string, content: string, minutesAgo: number, imageUrl?: string) =>
      recordInbound(gw.db.dataSource, {
        from: { phoneNumber },
        content,
        ...(imageUrl === undefined ? {} : { media: [{ url: imageUrl, contentType: 'image/jpeg' }] }),
        idleTimeoutMs: 3_600_000,
        at: at(minutesAgo),
      });
    const processed = await inbound(
      '+15035550123',
      'What is wrong with my tomato?',
      30,
      'https://media.example/tomato.jpg',
    );
    const failed = await inbound('+15035550124', 'And this one?', 20, 'https://media.example/gone.jpg');
    await inbound('+15035550124', 'Just text', 10);
    if (processed === null || failed === null) throw new Error('not recorded');
    const messages = gw.db.dataSource.getRepository(Message);
    await messages.update(
      { id: processed.messageId },
      {
        imageProcessed: true,
        imageContentType: 'image/jpeg',
        imageAnalysis: 'Early blight on the lower leaves.',
        tokenUsage: 1000,
        cost: 0.002,
        modelUsed: 'gpt-4o-mini',
      },
    );
    await gw.db.dataSource.getRepository(LlmCall).insert({
      messageId: processed.messageId,
      userId: processed.userId,
      conversationId: processed.conversationId,
      purpose: 'image',
      model: 'gpt-4o-mini',
      promptTokens: 900,
      completionTokens: 100,
      totalTokens: 1000,
      cost: 0.002,
      latencyMs: 1500,
      tier: 'primary',
      error: null,
      isTestUser: false,
    });
    await messages.update(
      { id: failed.messageId },
      { imageProcessed: false, imageProcessingError: 'Could not fetch the image: HTTP 404' },
    );

    const list = await call('GET', '/api/admin/image-messages');
    expect(list.statusCode).toBe(200);
    const rows = list.json<ImageMessageDto[]>();
    expect(rows.map((r) => r.content)).not.toContain('Just text');
    const mine = rows.filter((r) => r.user.phoneNumber.startsWith('+1503555012'));
    expect(mine.map((r) => r.id)).toEqual([failed.messageId, processed.messageId]);
    expect(mine[1]).toEqual({
      id: processed.messageId,
      user: { phoneNumber: '+15035550123' },
      content: 'What is wrong with my tomato?',
      createdAt: expect.any(String),
      imageProcessed: true,
      imageContentType: 'image/jpeg',
      imageUrl: 'https://media.example/tomato.jpg',
      imageAnalysis: 'Early blight on the lower leaves.',
      tokenUsage: 1000,
      cost: 0.002,
      modelUsed: 'gpt-4o-mini',
      imageProcessingError: null,
    });
    expect(mine[0]).toMatchObject({
      imageProcessed: false,
      imageProcessingError: 'Could not fetch the image: HTTP 404',
      tokenUsage: 0,
      cost: 0,
    });
    // Newest first across the whole list.
    const times = rows.map((r) => Date.parse(r.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const stats = (await call('GET', '/api/admin/image-stats')).json<ImageStats>();
    const all = await gw.db.dataSource.query<{ processed: string; failed: string; total: string }[]>(
      `SELECT count(*) FILTER (WHERE image_processed) AS processed,
              count(*) FILTER (WHERE image_processed IS FALSE) AS failed, count(*) AS total
         FROM messages WHERE media <> '[]'::jsonb`,
    );
    expect(stats).toMatchObject({
      totalImages: Number(all[0]?.total),
      processedImages: Number(all[0]?.processed),
      failedImages: Number(all[0]?.failed),
    });
    expect(stats.totalImages).toBeGreaterThanOrEqual(4);
    expect(stats.failedImages).toBeGreaterThanOrEqual(2);
    // The two processed images so far: this one (1000 tokens, $0.002) and the JPEG test's (850, $0.0013).
    expect(stats.totalTokens).toBe(1850);
    expect(stats.totalCost).toBeCloseTo(0.0033, 6);
    // Only the recorded call has a processing time.
    expect(stats.avgProcessingTime).toBe(1500);
  });
});

// Last: it adds a processed image to the totals checked above.
describe('image messages in the conversation screens', () => {
  it('shows the analysis with the picture in the Messages and simulator conversations', async () => {
    const res = await call('POST', '/api/test/image-processing', {
      imageUrl: `${origin}/api/image-samples/leaf.png`,
      messageText: 'Why are the tips brown?',
    });
    expect(res.statusCode).toBe(200);
    const { messageId } = res.json<ImageProcessingTestResponse>();
    const message = await gw.db.dataSource.getRepository(Message).findOneByOrFail({ id: messageId });
    const admin = await call(
      'GET',
      `/api/admin/conversations/${message.conversationId}/messages?showTestData=true`,
    );
    expect(admin.statusCode).toBe(200);
    expect(admin.json<ConversationMessage[]>().find((m) => m.id === messageId)).toMatchObject({
      imageUrl: `${origin}/api/image-samples/leaf.png`,
      imageAnalysis: 'A healthy leaf.',
    });
    const simulator = await call('GET', `/api/simulator/user/${message.userId}/conversation`);
    expect(simulator.statusCode).toBe(200);
    const { messages } = simulator.json<SimulatorConversationResponse>();
    expect(messages.find((m) => m.id === messageId)).toMatchObject({
      imageUrl: `${origin}/api/image-samples/leaf.png`,
      imageAnalysis: 'A healthy leaf.',
    });
    expect(messages.filter((m) => m.imageUrl === null).every((m) => m.imageAnalysis === null)).toBe(true);
  });
});
