// The product's services in-process for end-to-end tests: one test database and one Redis prefix
// that every service started here shares, the fake Twilio in front of sms-gateway, and one close()
// that stops everything in reverse order of starting.
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { findFreePort } from '@sprout/platform';
import {
  createTestDatabase,
  createTestRedis,
  FakeTwilio,
  type FakeTwilioInboundResponse,
  type TestDatabase,
  type TestRedis,
} from '@sprout/testing';
import { createApp as createResponder } from '../../services/ai-responder/src/app';
import { type ApiGatewayConfig, createApp as createApiGateway } from '../../services/api-gateway/src/app';
import { createApp as createImageProcessor } from '../../services/image-processor/src/app';
import { createApp as createSmsGateway } from '../../services/sms-gateway/src/app';
import type { SmsGatewayConfig } from '../../services/sms-gateway/src/config';
import { createApp as createSurveyScheduler } from '../../services/survey-scheduler/src/app';

export const ADMIN_USERNAME = 'e2e-admin';
export const ADMIN_PASSWORD = 'e2e-admin-password-123';
/** Sprout's own number, the one gardeners text (Twilio's test number). */
export const SPROUT_NUMBER = '+15005550006';

type Env = Record<string, string | undefined>;

/** The sms-gateway with the fake Twilio it sends through and takes webhooks from. */
export type SmsGateway = Awaited<ReturnType<typeof createSmsGateway>> & {
  twilio: FakeTwilio;
  /** Twilio's inbound webhook on this gateway. */
  inboundUrl: string;
  /**
   * A text from `from` to Sprout's number, posted and signed as Twilio does (a new MessageSid
   * unless `sid` is given); fails unless the webhook answers 200.
   */
  text(from: string, body: string, sid?: string): Promise<FakeTwilioInboundResponse>;
};

export class Services {
  // Run in reverse order by close().
  private readonly closers: Array<() => Promise<void>> = [];
  private sids = 0;

  private constructor(
    readonly db: TestDatabase,
    readonly redis: TestRedis,
  ) {
    this.closers.push(
      () => db.drop(),
      () => redis.cleanup(),
    );
  }

  /** A new test database and Redis prefix, no service yet. */
  static async start(): Promise<Services> {
    const db = await createTestDatabase();
    try {
      return new Services(db, await createTestRedis());
    } catch (error) {
      await db.drop();
      throw error;
    }
  }

  /** What every service is given: this database, this Redis prefix, loopback, no logs. */
  get settings() {
    return {
      databaseUrl: this.db.url,
      redisUrl: this.redis.url,
      bullmqPrefix: this.redis.prefix,
      host: '127.0.0.1',
      logLevel: 'silent' as const,
    };
  }

  /** Runs `close` in close(), before whatever was registered earlier. */
  onClose(close: () => Promise<void>): void {
    this.closers.push(close);
  }

  async close(): Promise<void> {
    for (const close of this.closers.splice(0).reverse()) await close();
  }

  /** Starts a service (or a fake) to be closed with the rest. */
  async add<T extends { close(): Promise<void> }>(starting: Promise<T>): Promise<T> {
    const started = await starting;
    this.onClose(() => started.close());
    return started;
  }

  /** api-gateway, initialised (not listening), its admin the e2e admin. */
  apiGateway(overrides: Partial<ApiGatewayConfig> = {}): Promise<NestFastifyApplication> {
    return this.add(
      createApiGateway({
        ...this.settings,
        adminUsername: ADMIN_USERNAME,
        adminPassword: ADMIN_PASSWORD,
        ...overrides,
      }),
    );
  }

  responder(overrides: Parameters<typeof createResponder>[0] = {}, env?: Env) {
    return this.add(createResponder({ ...this.settings, port: 0, ...overrides }, env));
  }

  imageProcessor(overrides: Parameters<typeof createImageProcessor>[0] = {}, env?: Env) {
    return this.add(createImageProcessor({ ...this.settings, port: 0, ...overrides }, env));
  }

  surveyScheduler(overrides: Parameters<typeof createSurveyScheduler>[0] = {}, env?: Env) {
    return this.add(createSurveyScheduler({ ...this.settings, port: 0, ...overrides }, env));
  }

  /** sms-gateway against a new fake Twilio, on a port of its own: status callbacks come back to it. */
  async smsGateway(overrides: Partial<SmsGatewayConfig> = {}): Promise<SmsGateway> {
    const twilio = await this.add(FakeTwilio.start({ callbackDelayMs: 5 }));
    const port = await findFreePort();
    const publicBaseUrl = `http://127.0.0.1:${port}`;
    const app = await this.add(
      createSmsGateway({
        ...this.settings,
        port,
        publicBaseUrl,
        twilioApiBaseUrl: twilio.url,
        twilioAccountSid: twilio.accountSid,
        twilioAuthToken: twilio.authToken,
        ...overrides,
      }),
    );
    const inboundUrl = `${publicBaseUrl}/webhooks/twilio/sms`;
    const text = async (from: string, body: string, sid = this.nextSid()) => {
      const answer = await twilio.sendInbound(inboundUrl, {
        From: from,
        To: SPROUT_NUMBER,
        Body: body,
        MessageSid: sid,
      });
      if (answer.status !== 200) throw new Error(`The webhook answered ${answer.status}: ${answer.body}`);
      return answer;
    };
    return { ...app, twilio, inboundUrl, text };
  }

  private nextSid(): string {
    this.sids += 1;
    return `SM${String(this.sids).padStart(32, '0')}`;
  }
}

/** The session cookie of the e2e admin signed in on `api` (a cookie header's value). */
export async function adminCookie(api: NestFastifyApplication): Promise<string> {
  const login = await api.inject({
    method: 'POST',
    url: '/api/admin/login',
    payload: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
  });
  if (login.statusCode !== 200) throw new Error(`Admin login answered ${login.statusCode}`);
  const setCookie = login.headers['set-cookie'];
  const cookie = (Array.isArray(setCookie) ? setCookie : [setCookie ?? ''])
    .find((c) => c.startsWith('sprout_session='))
    ?.split(';')[0];
  if (cookie === undefined) throw new Error('login set no session cookie');
  return cookie;
}
