import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { Conversation, Message, User } from '@sprout/domain';
import { JobQueues, findFreePort } from '@sprout/platform';
import {
  FakeTwilio,
  type FakeTwilioOptions,
  type TestDatabase,
  type TestRedis,
  createTestDatabase,
  createTestRedis,
  eventually,
} from '@sprout/testing';
import { Worker } from 'bullmq';
import type { DataSource } from 'typeorm';
import { createApp } from '../src/app';
import type { SmsGatewayConfig } from '../src/config';

export type GatewayApp = Awaited<ReturnType<typeof createApp>>;

export interface GatewayHarness {
  db: TestDatabase;
  redis: TestRedis;
  twilio: FakeTwilio;
  gateway: GatewayApp;
  /** The public URL the gateway is reached at (PUBLIC_BASE_URL). */
  baseUrl: string;
  close(): Promise<void>;
}

/** What a test's sms-gateway runs on: its own database, Redis prefix and fake Twilio. */
export interface GatewayDeps {
  db: TestDatabase;
  redis: TestRedis;
  twilio: FakeTwilio;
}

/** sms-gateway's settings on `deps`, listening on `port` (its public URL unless overridden). */
const gatewayConfig = (
  deps: GatewayDeps,
  port: number,
  overrides: Partial<SmsGatewayConfig> = {},
): Partial<SmsGatewayConfig> => ({
  databaseUrl: deps.db.url,
  redisUrl: deps.redis.url,
  bullmqPrefix: deps.redis.prefix,
  host: '127.0.0.1',
  port,
  publicBaseUrl: `http://127.0.0.1:${port}`,
  twilioApiBaseUrl: deps.twilio.url,
  twilioAccountSid: deps.twilio.accountSid,
  twilioAuthToken: deps.twilio.authToken,
  logLevel: 'silent',
  ...overrides,
});

/** sms-gateway in this process on `deps`, listening on a free port. */
export const startGatewayApp = async (
  deps: GatewayDeps,
  overrides: Partial<SmsGatewayConfig> = {},
): Promise<GatewayApp> => createApp(gatewayConfig(deps, await findFreePort(), overrides));

/** sms-gateway on its own database, Redis prefix and fake Twilio, listening on a free port. */
export const startGateway = async (
  twilioOptions: FakeTwilioOptions = {},
  overrides: Partial<SmsGatewayConfig> = {},
): Promise<GatewayHarness> => {
  const db = await createTestDatabase();
  const redis = await createTestRedis();
  const twilio = await FakeTwilio.start(twilioOptions);
  const gateway = await startGatewayApp(
    { db, redis, twilio },
    // Unpaced unless a test paces on purpose (a long code's 1 segment/s would slow every test).
    { smsLongCodeRate: 10_000, ...overrides },
  );
  const harness: GatewayHarness = {
    db,
    redis,
    twilio,
    gateway,
    baseUrl: gateway.config.publicBaseUrl,
    // The gateway a test put in place of the first one (restarted on other settings), if any.
    close: async () => {
      await harness.gateway.close();
      await twilio.close();
      await redis.cleanup();
      await db.drop();
    },
  };
  return harness;
};

/** A gateway child process and the URL it answers on. */
type GatewayProcess = ChildProcess & { baseUrl: string };

/**
 * A database, Redis prefix, fake Twilio and queue client of a test's own, for gateways it starts,
 * kills and replaces itself; closing it stops every gateway it started first.
 */
export interface GatewayStage extends GatewayDeps {
  queues: JobQueues;
  /** sms-gateway in this process, on a free port. */
  startApp(overrides?: Partial<SmsGatewayConfig>): Promise<GatewayApp>;
  /** sms-gateway's real entry point in a child process (see startGatewayProcess). */
  startProcess(twilioApiBaseUrl?: string): Promise<GatewayProcess>;
  close(): Promise<void>;
}

export const startGatewayStage = async (twilioOptions: FakeTwilioOptions = {}): Promise<GatewayStage> => {
  const db = await createTestDatabase();
  const redis = await createTestRedis();
  const twilio = await FakeTwilio.start(twilioOptions);
  const queues = new JobQueues({ connection: redis.connection, prefix: redis.prefix });
  const deps = { db, redis, twilio };
  const apps: GatewayApp[] = [];
  const processes: ChildProcess[] = [];
  return {
    ...deps,
    queues,
    startApp: async (overrides) => {
      const app = await startGatewayApp(deps, overrides);
      apps.push(app);
      return app;
    },
    startProcess: async (twilioApiBaseUrl) => {
      const proc = await startGatewayProcess(deps, twilioApiBaseUrl);
      processes.push(proc);
      return proc;
    },
    close: async () => {
      for (const proc of processes) proc.kill('SIGKILL');
      await Promise.allSettled(apps.map((app) => app.close()));
      await queues.close();
      await twilio.close();
      await redis.cleanup();
      await db.drop();
    },
  };
};

/**
 * The real entry point (src/main.ts) in a child process on `deps`, once it is ready: a gateway a
 * test can kill for real (SIGKILL). Twilio is `twilioApiBaseUrl` when the fake must not answer.
 */
const startGatewayProcess = async (
  deps: GatewayDeps,
  twilioApiBaseUrl = deps.twilio.url,
): Promise<GatewayProcess> => {
  const port = await findFreePort();
  const output: string[] = [];
  const proc = spawn(process.execPath, [path.join(__dirname, 'support', 'gateway-process.cjs')], {
    env: {
      ...process.env,
      DATABASE_URL: deps.db.url,
      REDIS_URL: deps.redis.url,
      BULLMQ_PREFIX: deps.redis.prefix,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      TWILIO_API_BASE_URL: twilioApiBaseUrl,
      TWILIO_ACCOUNT_SID: deps.twilio.accountSid,
      TWILIO_AUTH_TOKEN: deps.twilio.authToken,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  proc.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  try {
    await eventually(
      async () => {
        if (proc.exitCode !== null) throw new Error(`gateway process exited ${proc.exitCode}`);
        const ready = await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => undefined);
        return ready?.status === 200 ? true : undefined;
      },
      'the gateway process to be ready',
      60_000,
    );
  } catch (error) {
    proc.kill('SIGKILL');
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${output.join('')}`);
  }
  return Object.assign(proc, { baseUrl: `http://127.0.0.1:${port}` });
};

/** Kills `proc` at once (SIGKILL), as a crash would, and waits until it is gone. */
export const killProcess = async (proc: ChildProcess): Promise<void> => {
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGKILL');
  await exited;
};

/**
 * Stand-ins for the passing of time after a worker died holding outbound job `jobId`: its lock
 * expires (lockDuration, 30 s) and a stalled-job check (every 30 s) moves the job back to the
 * wait list, where another gateway takes it.
 */
export const requeueStalledOutbound = async (redis: TestRedis, queues: JobQueues, jobId: string) => {
  await redis.connection.del(`${redis.prefix}:sms.outbound:${jobId}:lock`);
  await redis.connection.del(`${redis.prefix}:sms.outbound:stalled-check`);
  const checker = new Worker('sms.outbound', undefined, {
    connection: redis.connection,
    prefix: redis.prefix,
    autorun: false,
    stalledInterval: 100,
  });
  try {
    await checker.startStalledCheckTimer();
    const outbound = queues.queue('sms.outbound');
    await eventually(
      async () => ((await (await outbound.getJob(jobId))?.getState()) === 'waiting' ? true : undefined),
      'the stalled job to be waiting again',
    );
  } finally {
    await checker.close();
  }
};

let phoneCounter = 0;
/** A distinct valid US number per call (555-01xx is reserved for fiction). */
export const nextPhone = (): string => `+1503555${String(100 + (phoneCounter++ % 100)).padStart(4, '0')}`;

/** A user, an open conversation and one queued outbound message, as ai-responder would leave them. */
export const insertQueuedReply = async (
  dataSource: DataSource,
  options: { phoneNumber: string; isTestUser?: boolean; content?: string },
): Promise<Message> => {
  const users = dataSource.getRepository(User);
  const user = await users.save(
    users.create({ phoneNumber: options.phoneNumber, isTestUser: options.isTestUser ?? false }),
  );
  const now = new Date();
  const conversations = dataSource.getRepository(Conversation);
  const conversation = await conversations.save(
    conversations.create({
      userId: user.id,
      startedAt: now,
      lastMessageAt: now,
      isTestUser: user.isTestUser,
    }),
  );
  const messages = dataSource.getRepository(Message);
  return messages.save(
    messages.create({
      userId: user.id,
      conversationId: conversation.id,
      direction: 'outbound',
      content: options.content ?? 'Water tomatoes deeply twice a week.',
      status: 'queued',
      kind: 'reply',
      isTestUser: user.isTestUser,
    }),
  );
};

export { countersOf } from '@sprout/testing';
export { eventually };
