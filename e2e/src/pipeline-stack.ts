// The SMS pipeline for end-to-end tests: api-gateway (serving the built web apps and /api),
// ai-responder and, when asked, sms-gateway with the fake Twilio, all in-process on one test
// database and one Redis prefix, so a simulator message really travels sms.inbound -> reply ->
// sms.outbound. No OpenAI key is given: the offline advisor answers.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { findFreePort } from '@sprout/platform';
import {
  createTestDatabase,
  createTestRedis,
  FakeTwilio,
  type TestDatabase,
  type TestRedis,
} from '@sprout/testing';
import { createApp as createResponder } from '../../services/ai-responder/src/app';
import { type ApiGatewayConfig, createApp as createApiGateway } from '../../services/api-gateway/src/app';
import { createApp as createSmsGateway } from '../../services/sms-gateway/src/app';
import type { SmsGatewayConfig } from '../../services/sms-gateway/src/config';
import { ADMIN_PASSWORD, ADMIN_USERNAME, WEB_ADMIN_DIST, WEB_PUBLIC_DIST } from './stack';

export { ADMIN_PASSWORD, ADMIN_USERNAME } from './stack';

export interface PipelineStackOptions {
  /** Also run sms-gateway (outbound sending, against the fake Twilio). Default false. */
  withSmsGateway?: boolean;
  /** Settings of the api-gateway (e.g. a lower rate limit). */
  apiGateway?: Partial<ApiGatewayConfig>;
  /** Settings of sms-gateway (e.g. a faster sending rate). */
  smsGateway?: Partial<SmsGatewayConfig>;
}

export interface PipelineStack {
  /** http://127.0.0.1:PORT: the web apps and /api on one origin. */
  baseUrl: string;
  db: TestDatabase;
  redis: TestRedis;
  apiGateway: NestFastifyApplication;
  responder: Awaited<ReturnType<typeof createResponder>>;
  smsGateway: Awaited<ReturnType<typeof createSmsGateway>> | undefined;
  /** The fake Twilio sms-gateway sends through (present with withSmsGateway). */
  twilio: FakeTwilio | undefined;
  close(): Promise<void>;
}

function requireBuilt(dist: string, workspace: string): void {
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    throw new Error(`${dist} has no index.html: run npm run build -w ${workspace} first`);
  }
}

export async function startPipelineStack(options: PipelineStackOptions = {}): Promise<PipelineStack> {
  requireBuilt(WEB_PUBLIC_DIST, '@sprout/web-public');
  requireBuilt(WEB_ADMIN_DIST, '@sprout/web-admin');
  const db = await createTestDatabase();
  const redis = await createTestRedis();
  const shared = {
    databaseUrl: db.url,
    redisUrl: redis.url,
    bullmqPrefix: redis.prefix,
    host: '127.0.0.1',
    logLevel: 'silent' as const,
  };
  // Closed in reverse order of starting.
  const closers: Array<() => Promise<void>> = [() => db.drop(), () => redis.cleanup()];
  const closeAll = async (): Promise<void> => {
    for (const close of closers.splice(0).reverse()) await close();
  };

  try {
    const apiGateway = await createApiGateway({
      ...shared,
      adminUsername: ADMIN_USERNAME,
      adminPassword: ADMIN_PASSWORD,
      webPublicDist: WEB_PUBLIC_DIST,
      webAdminDist: WEB_ADMIN_DIST,
      ...options.apiGateway,
    });
    closers.push(() => apiGateway.close());
    await apiGateway.listen({ port: 0, host: '127.0.0.1' });
    const address = apiGateway.getHttpAdapter().getInstance().server.address();
    if (address === null || typeof address === 'string')
      throw new Error('api-gateway did not listen on a TCP port');
    const baseUrl = `http://127.0.0.1:${address.port}`;

    const responder = await createResponder({ ...shared, port: 0, openaiApiKey: undefined });
    closers.push(() => responder.close());

    let twilio: FakeTwilio | undefined;
    let smsGateway: PipelineStack['smsGateway'];
    if (options.withSmsGateway) {
      const fake = await FakeTwilio.start({ callbackDelayMs: 5 });
      twilio = fake;
      closers.push(() => fake.close());
      // Status callbacks come back to the public URL, so sms-gateway listens on a known port.
      const port = await findFreePort();
      const started = await createSmsGateway({
        ...shared,
        port,
        publicBaseUrl: `http://127.0.0.1:${port}`,
        twilioApiBaseUrl: fake.url,
        twilioAccountSid: fake.accountSid,
        twilioAuthToken: fake.authToken,
        ...options.smsGateway,
      });
      smsGateway = started;
      closers.push(() => started.close());
    }

    return { baseUrl, db, redis, apiGateway, responder, smsGateway, twilio, close: closeAll };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
