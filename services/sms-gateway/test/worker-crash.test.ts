import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
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
 * A gateway process killed (SIGKILL) while its worker is in the middle of sending a reply: the
 * job stays in Redis, comes back once its lock has expired, and another gateway sends the reply
 * exactly once.
 */
describe('outbound worker killed mid-job', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  let twilio: FakeTwilio;
  let queues: JobQueues;
  let child: ChildProcess | undefined;
  let blackHole: http.Server;
  let survivor: Awaited<ReturnType<typeof createApp>> | undefined;
  let requestArrived: Promise<void>;

  beforeAll(async () => {
    db = await createTestDatabase();
    redis = await createTestRedis();
    twilio = await FakeTwilio.start({ callbackDelayMs: 5 });
    queues = new JobQueues({ connection: redis.connection, prefix: redis.prefix });
    // The first gateway's Twilio: takes the request and never answers, so the job is mid-call.
    let arrived: () => void = () => undefined;
    requestArrived = new Promise((resolve) => {
      arrived = resolve;
    });
    blackHole = http.createServer(() => arrived());
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    child?.kill('SIGKILL');
    await survivor?.close();
    blackHole?.closeAllConnections();
    await new Promise((resolve) => blackHole?.close(resolve));
    await queues?.close();
    await twilio?.close();
    await redis?.cleanup();
    await db?.drop();
  });

  const startGatewayProcess = async (): Promise<ChildProcess> => {
    const port = await findFreePort();
    const address = blackHole.address();
    if (address === null || typeof address === 'string') throw new Error('black hole not listening');
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
        TWILIO_API_BASE_URL: `http://127.0.0.1:${address.port}`,
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

  it('loses nothing and sends the reply once', async () => {
    child = await startGatewayProcess();
    const reply = await insertQueuedReply(db.dataSource, { phoneNumber: '+15035550177' });
    const { jobId } = await queues.enqueue('sms.outbound', { messageId: reply.id });
    await requestArrived;
    const messages = db.dataSource.getRepository(Message);
    expect((await messages.findOneByOrFail({ id: reply.id })).status).toBe('sending');

    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;

    // The job is still in Redis, active under the dead worker's lock; nothing went out.
    const outbound = queues.queue('sms.outbound');
    expect(await (await outbound.getJob(jobId))?.getState()).toBe('active');
    expect(twilio.sent).toHaveLength(0);

    // Stand-ins for the passing of time: the dead worker's lock expires (lockDuration, 30 s) and
    // a stalled-job check (every 30 s) finds the job and moves it back to the wait list.
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

    // Another gateway takes the job over and sends the reply once.
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
    const delivered = await eventually(async () => {
      const m = await messages.findOneByOrFail({ id: reply.id });
      return m.status === 'delivered' ? m : undefined;
    }, 'the reply to be delivered');
    expect(delivered.providerSid).toMatch(/^SM/);
    expect(twilio.sent).toHaveLength(1);
    expect(twilio.sent[0]).toMatchObject({ to: '+15035550177', body: reply.content });
    expect(await (await outbound.getJob(jobId))?.getState()).toBe('completed');
  });
});
