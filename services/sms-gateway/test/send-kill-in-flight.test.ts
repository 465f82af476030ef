import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { Message } from '@sprout/domain';
import { JobQueues, findFreePort } from '@sprout/platform';
import {
  FakeTwilio,
  type TestDatabase,
  type TestRedis,
  createTestDatabase,
  createTestRedis,
} from '@sprout/testing';
import { Worker } from 'bullmq';
import { createApp } from '../src/app';
import { eventually, insertQueuedReply } from './harness';

/**
 * A gateway process killed (SIGKILL) after Twilio accepted a reply but before
 * the gateway stored its sid. The job comes back on another gateway, which finds the message at
 * Twilio (recorded attempt, no sid: look before sending) and does not send it a second time.
 */
describe('gateway killed with a send in flight at Twilio', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  let twilio: FakeTwilio;
  let queues: JobQueues;
  let child: ChildProcess | undefined;
  let survivor: Awaited<ReturnType<typeof createApp>> | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
    redis = await createTestRedis();
    twilio = await FakeTwilio.start({ callbackDelayMs: 5 });
    queues = new JobQueues({ connection: redis.connection, prefix: redis.prefix });
  });

  afterAll(async () => {
    child?.kill('SIGKILL');
    await survivor?.close();
    await queues?.close();
    await twilio?.close();
    await redis?.cleanup();
    await db?.drop();
  });

  const startGatewayProcess = async (): Promise<ChildProcess> => {
    const port = await findFreePort();
    const output: string[] = [];
    const proc = spawn(process.execPath, [path.join(__dirname, 'support', 'gateway-process.cjs')], {
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        REDIS_URL: redis.url,
        BULLMQ_PREFIX: redis.prefix,
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        TWILIO_API_BASE_URL: twilio.url,
        TWILIO_ACCOUNT_SID: twilio.accountSid,
        TWILIO_AUTH_TOKEN: twilio.authToken,
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
    return proc;
  };

  it('sends the reply once', async () => {
    child = await startGatewayProcess();
    // Twilio takes the message at once but answers only after the gateway is dead.
    twilio.holdAnswerAfterAccept(60_000);
    const reply = await insertQueuedReply(db.dataSource, { phoneNumber: '+15035550178' });
    const { jobId } = await queues.enqueue('sms.outbound', { messageId: reply.id });
    await twilio.waitForMessages(1, 20_000);
    const messages = db.dataSource.getRepository(Message);
    expect(await messages.findOneByOrFail({ id: reply.id })).toMatchObject({
      status: 'sending',
      providerSid: null,
    });

    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;

    // Stand-ins for the passing of time: the dead worker's lock expires and a stalled-job check
    // moves the job back to the wait list (as in worker-crash.test.ts).
    const outbound = queues.queue('sms.outbound');
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
      await eventually(
        async () => ((await (await outbound.getJob(jobId))?.getState()) === 'waiting' ? true : undefined),
        'the stalled job to be waiting again',
      );
    } finally {
      await checker.close();
    }

    const port = await findFreePort();
    survivor = await createApp({
      databaseUrl: db.url,
      redisUrl: redis.url,
      bullmqPrefix: redis.prefix,
      host: '127.0.0.1',
      port,
      publicBaseUrl: `http://127.0.0.1:${port}`,
      twilioApiBaseUrl: twilio.url,
      twilioAccountSid: twilio.accountSid,
      twilioAuthToken: twilio.authToken,
      logLevel: 'silent',
    });
    const found = await eventually(async () => {
      const m = await messages.findOneByOrFail({ id: reply.id });
      return m.providerSid === null ? undefined : m;
    }, 'the survivor to store the sid');
    expect(found.providerSid).toBe(twilio.sent[0]?.sid);
    expect(await (await outbound.getJob(jobId))?.getState()).toBe('completed');
    // The fake's record: one message to that phone, ever.
    expect(twilio.sent).toHaveLength(1);
    expect(twilio.sent[0]).toMatchObject({ to: '+15035550178', body: reply.content });
  });
});
