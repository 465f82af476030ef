// The web stack for browser tests: api-gateway in-process on its own database and Redis prefix,
// serving the built web apps and /api on one local origin; ai-responder and sms-gateway (with the
// fake Twilio) when asked, so a text really travels sms.inbound -> reply -> sms.outbound.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FakeOpenAI, type TestDatabase, type TestRedis } from '@sprout/testing';
import type { ApiGatewayConfig } from '../../services/api-gateway/src/app';
import type { SmsGatewayConfig } from '../../services/sms-gateway/src/config';
import { Services, type SmsGateway } from './services';

export { ADMIN_PASSWORD, ADMIN_USERNAME } from './services';

const repoRoot = path.resolve(__dirname, '..', '..');
const WEB_PUBLIC_DIST = path.join(repoRoot, 'web-public', 'dist');
const WEB_ADMIN_DIST = path.join(repoRoot, 'web-admin', 'dist');

export interface WebStackOptions {
  /** api-gateway settings (e.g. a lower signup rate limit). */
  apiGateway?: Partial<ApiGatewayConfig>;
  /** The fake OpenAI server as the provider: api-gateway gets its key and URL. */
  openai?: boolean;
  /** Also run ai-responder, with no OpenAI key: the offline advisor answers. */
  responder?: boolean;
  /** Also run sms-gateway against the fake Twilio (true, or its settings). */
  smsGateway?: boolean | Partial<SmsGatewayConfig>;
}

export interface WebStack {
  /** http://127.0.0.1:PORT, the one origin of both apps and /api. */
  baseUrl: string;
  /** Whatever else a test starts on the same database and Redis prefix, closed with the stack. */
  services: Services;
  db: TestDatabase;
  redis: TestRedis;
  apiGateway: NestFastifyApplication;
  /** The parts started on request; reading one the stack was not asked for throws. */
  responder: Awaited<ReturnType<Services['responder']>>;
  sms: SmsGateway;
  openai: FakeOpenAI;
  close(): Promise<void>;
}

function requireBuilt(dist: string, workspace: string): void {
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    throw new Error(`${dist} has no index.html: run npm run build -w ${workspace} first`);
  }
}

function started<T>(part: T | undefined, option: keyof WebStackOptions): T {
  if (part === undefined) throw new Error(`This stack was started without the ${option} option`);
  return part;
}

export async function startWebStack(options: WebStackOptions = {}): Promise<WebStack> {
  requireBuilt(WEB_PUBLIC_DIST, '@sprout/web-public');
  requireBuilt(WEB_ADMIN_DIST, '@sprout/web-admin');
  const services = await Services.start();
  try {
    const openai = options.openai ? await services.add(FakeOpenAI.start()) : undefined;
    const apiGateway = await services.apiGateway({
      webPublicDist: WEB_PUBLIC_DIST,
      webAdminDist: WEB_ADMIN_DIST,
      ...(openai ? { openaiApiKey: openai.apiKey, openaiBaseUrl: openai.baseURL } : {}),
      ...options.apiGateway,
    });
    await apiGateway.listen({ port: 0, host: '127.0.0.1' });
    const address = apiGateway.getHttpAdapter().getInstance().server.address();
    if (address === null || typeof address === 'string')
      throw new Error('api-gateway did not listen on a TCP port');
    const responder = options.responder ? await services.responder({ openaiApiKey: undefined }) : undefined;
    const { smsGateway } = options;
    const sms = smsGateway ? await services.smsGateway(smsGateway === true ? {} : smsGateway) : undefined;
    return {
      baseUrl: `http://127.0.0.1:${address.port}`,
      services,
      db: services.db,
      redis: services.redis,
      apiGateway,
      get responder() {
        return started(responder, 'responder');
      },
      get sms() {
        return started(sms, 'smsGateway');
      },
      get openai() {
        return started(openai, 'openai');
      },
      close: () => services.close(),
    };
  } catch (error) {
    await services.close();
    throw error;
  }
}
