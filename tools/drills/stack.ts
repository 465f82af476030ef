// The drill stack: Postgres and Redis (data.ts), the fake Twilio and fake OpenAI in this process
// behind fault proxies, the edge in this process, and each service a child process of its own
// (service-main.cjs, from the TypeScript sources) so a drill can SIGKILL any one of them.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Redis from 'ioredis';
import { Pool } from 'pg';
import { FakeOpenAI, FakeTwilio } from '@sprout/testing';
import { type Edge, createEdge } from '@sprout/edge';
import { type DataMode, type DataServices, freePort, startDataServices } from './data';
import { Balancer } from './balancer';
import { FaultProxy } from './fault-proxy';
import { StallRelay } from './stall-relay';

const ROOT = path.resolve(__dirname, '../..');
const SERVICE_MAIN = path.join(__dirname, 'service-main.cjs');
const ACCOUNT_SID = `AC${'d'.repeat(32)}`;
const AUTH_TOKEN = 'drills-auth-token';
export const OUR_NUMBER = '+15005550006';

export type ServiceName = 'sms-gateway' | 'ai-responder';

export class ServiceProcess {
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  constructor(
    readonly name: ServiceName,
    readonly replica: number,
    readonly port: number,
    readonly child: ChildProcess,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  get label(): string {
    return this.replica === 0 ? this.name : `${this.name}#${this.replica + 1}`;
  }
}

export interface StackOptions {
  data: DataMode;
  /** Folder for the services' logs. */
  logDir: string;
  log: (message: string) => void;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class DrillStack {
  readonly processes: ServiceProcess[] = [];
  private edgeServer: Edge | null = null;
  private gatewayBalancer: Balancer | null = null;
  private edgeUrl_ = '';
  private ports = new Map<string, number>();
  private redisClient: Redis | null = null;

  private constructor(
    readonly options: StackOptions,
    readonly data: DataServices,
    readonly twilio: FakeTwilio,
    readonly openai: FakeOpenAI,
    readonly twilioProxy: FaultProxy,
    readonly openaiProxy: FaultProxy,
    readonly pool: Pool,
    /** sms-gateway reaches Redis through it (a drill stalls it); ai-responder goes direct. */
    readonly gatewayRedisRelay: StallRelay,
  ) {}

  static async start(options: StackOptions): Promise<DrillStack> {
    fs.mkdirSync(options.logDir, { recursive: true });
    const data = await startDataServices(options.data, options.log);
    const started: Array<() => Promise<void>> = [() => data.stop()];
    try {
      const twilio = await FakeTwilio.start({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN });
      started.push(() => twilio.close());
      const openai = await FakeOpenAI.start();
      started.push(() => openai.close());
      // Twilio's and OpenAI's own error bodies, so the SDKs classify the failures as they would live.
      const twilioProxy = await FaultProxy.start(
        twilio.url,
        (status) => ({
          code: status === 429 ? 20429 : status === 503 ? 20503 : 20500,
          message: `HTTP ${status}`,
          more_info: '',
          status,
        }),
        (_method, urlPath) => urlPath.startsWith('/2010-04-01/'),
      );
      started.push(() => twilioProxy.close());
      const openaiProxy = await FaultProxy.start(
        openai.url,
        (status) => ({
          error: { message: `injected ${status}`, type: 'server_error', param: null, code: null },
        }),
        (_method, urlPath) => urlPath.startsWith('/v1/'),
      );
      started.push(() => openaiProxy.close());
      const pool = new Pool({ connectionString: data.databaseUrl, max: 4 });
      pool.on('error', () => undefined);
      const gatewayRedisRelay = await StallRelay.start(data.redisUrl);
      started.push(() => gatewayRedisRelay.close());
      const stack = new DrillStack(
        options,
        data,
        twilio,
        openai,
        twilioProxy,
        openaiProxy,
        pool,
        gatewayRedisRelay,
      );
      await stack.startEdge();
      return stack;
    } catch (error) {
      for (const stop of started.reverse()) await stop().catch(() => undefined);
      throw error;
    }
  }

  /** Where Twilio posts (PUBLIC_BASE_URL of sms-gateway): the edge. */
  get edgeUrl(): string {
    return this.edgeUrl_;
  }

  get webhookUrl(): string {
    return `${this.edgeUrl_}/webhooks/twilio/sms`;
  }

  private async startEdge(): Promise<void> {
    await this.portFor('sms-gateway', 0);
    // The edge reaches the sms-gateway replicas through a balancer, as it does in compose and k8s.
    this.gatewayBalancer = await Balancer.start(() => this.replicas('sms-gateway').map((p) => p.port));
    const smsGatewayPort = this.gatewayBalancer.port;
    // Nothing answers on the api-gateway side: the drills post only Twilio webhooks. Webhooks no
    // replica takes within the retry budget are kept in the spool and replayed, as npm start does.
    this.edgeServer = createEdge({
      apiGatewayUrl: `http://127.0.0.1:${await freePort()}`,
      smsGatewayUrl: `http://127.0.0.1:${smsGatewayPort}`,
      spoolDir: path.join(this.options.logDir, 'edge-spool'),
      log: (line) => this.options.log(line),
    });
    await new Promise<void>((resolve) => this.edgeServer?.listen(0, '127.0.0.1', resolve));
    this.edgeUrl_ = `http://127.0.0.1:${(this.edgeServer.address() as AddressInfo).port}`;
  }

  /** A replica keeps its port across restarts (the edge knows sms-gateway's). */
  private async portFor(name: ServiceName, replica: number): Promise<number> {
    const key = `${name}#${replica}`;
    let port = this.ports.get(key);
    if (port === undefined) {
      port = await freePort();
      this.ports.set(key, port);
    }
    return port;
  }

  private envFor(name: ServiceName, port: number): NodeJS.ProcessEnv {
    const common: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: process.env.DRILLS_LOG_LEVEL ?? 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: this.data.databaseUrl,
      REDIS_URL: this.data.redisUrl,
      BULLMQ_PREFIX: this.data.prefix,
      SHUTDOWN_TIMEOUT_SECONDS: '5',
    };
    if (name === 'sms-gateway') {
      return {
        ...common,
        REDIS_URL: this.gatewayRedisRelay.urlFor(this.data.redisUrl),
        PUBLIC_BASE_URL: this.edgeUrl_,
        TWILIO_ACCOUNT_SID: ACCOUNT_SID,
        TWILIO_AUTH_TOKEN: AUTH_TOKEN,
        TWILIO_PHONE_NUMBER: OUR_NUMBER,
        TWILIO_API_BASE_URL: this.twilioProxy.url,
        // Our number paced like a short code: the drills count losses, not the carriers' pacing
        // (a long code's 1 segment/s would make 300 replies take minutes).
        SMS_SENDER_RATES: `${OUR_NUMBER}=200`,
        SMS_SEND_RATE_PER_SECOND: '200',
      };
    }
    return {
      ...common,
      OPENAI_API_KEY: this.openai.apiKey,
      OPENAI_BASE_URL: `${this.openaiProxy.url}/v1`,
      LLM_TIMEOUT_MS: '5000',
    };
  }

  /** Starts (or restarts) one replica and waits for /health/ready. */
  async startService(name: ServiceName, replica = 0): Promise<ServiceProcess> {
    const port = await this.portFor(name, replica);
    const logFile = path.join(this.options.logDir, `${name}-${replica + 1}.log`);
    const fd = fs.openSync(logFile, 'a');
    fs.writeSync(fd, `\n---- started ${new Date().toISOString()}\n`);
    const child = spawn(process.execPath, [SERVICE_MAIN, name], {
      cwd: path.join(ROOT, 'services', name),
      env: this.envFor(name, port),
      stdio: ['ignore', fd, fd],
    });
    fs.closeSync(fd);
    const service = new ServiceProcess(name, replica, port, child);
    const index = this.processes.findIndex((p) => p.name === name && p.replica === replica);
    if (index >= 0) this.processes.splice(index, 1, service);
    else this.processes.push(service);
    await this.waitReady(service, logFile);
    return service;
  }

  private async waitReady(service: ServiceProcess, logFile: string): Promise<void> {
    const deadline = Date.now() + 300_000;
    while (Date.now() < deadline) {
      if (!service.alive) {
        const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n');
        throw new Error(`${service.label} exited while starting:\n${tail}`);
      }
      try {
        const response = await fetch(`http://127.0.0.1:${service.port}/health/ready`, {
          signal: AbortSignal.timeout(2000),
        });
        if (response.ok) return;
      } catch {
        // not listening yet
      }
      await sleep(250);
    }
    throw new Error(`${service.label} was not ready within 300 s (log: ${logFile})`);
  }

  /** Webhooks the edge keeps in its spool, not yet taken by sms-gateway. */
  get spooledWebhooks(): number {
    return this.edgeServer?.spool?.pending ?? 0;
  }

  /** The edge's spool counters: spooled, replayed and dropped (by reason) so far. */
  async spoolCounts(): Promise<{ spooled: number; replayed: number; dropped: number }> {
    const total = async (name: string): Promise<number> => {
      const metric = await this.edgeServer?.metrics.getSingleMetric(name)?.get();
      return (metric?.values ?? []).reduce((sum, v) => sum + v.value, 0);
    };
    return {
      spooled: await total('sprout_edge_webhooks_spooled_total'),
      replayed: await total('sprout_edge_webhooks_replayed_total'),
      dropped: await total('sprout_edge_webhooks_dropped_total'),
    };
  }

  replicas(name: ServiceName): ServiceProcess[] {
    return this.processes.filter((p) => p.name === name);
  }

  service(name: ServiceName, replica = 0): ServiceProcess {
    const found = this.processes.find((p) => p.name === name && p.replica === replica);
    if (!found) throw new Error(`${name} replica ${replica} was never started`);
    return found;
  }

  /** Sends `signal` and waits for the process to be gone. */
  async kill(service: ServiceProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (service.alive) service.child.kill(signal);
    await service.exited;
  }

  /** Stops a replica for good (it is no longer part of the stack). */
  async remove(service: ServiceProcess): Promise<void> {
    await this.kill(service, 'SIGTERM');
    const index = this.processes.indexOf(service);
    if (index >= 0) this.processes.splice(index, 1);
  }

  /** Whether a job with this id is in Redis (any state). */
  async jobExists(queue: string, jobId: string): Promise<boolean> {
    if (this.redisClient === null) {
      this.redisClient = new Redis(this.data.redisUrl, { maxRetriesPerRequest: 1 });
      this.redisClient.on('error', () => undefined);
    }
    return (await this.redisClient.exists(`${this.data.prefix}:${queue}:${jobId}`)) === 1;
  }

  /** Jobs not finished yet in the reply path's queues (waiting, running, delayed, retrying). */
  async pendingJobs(): Promise<number> {
    if (this.redisClient === null) {
      this.redisClient = new Redis(this.data.redisUrl, { maxRetriesPerRequest: 1 });
      this.redisClient.on('error', () => undefined);
    }
    const redis = this.redisClient;
    let total = 0;
    for (const queue of ['sms.inbound', 'sms.outbound']) {
      const key = (part: string): string => `${this.data.prefix}:${queue}:${part}`;
      const [wait, active, paused, delayed, prioritized, children] = await Promise.all([
        redis.llen(key('wait')),
        redis.llen(key('active')),
        redis.llen(key('paused')),
        redis.zcard(key('delayed')),
        redis.zcard(key('prioritized')),
        redis.zcard(key('waiting-children')),
      ]);
      total += wait + active + paused + delayed + prioritized + children;
    }
    return total;
  }

  async stop(): Promise<void> {
    await Promise.all(this.processes.map((p) => this.kill(p, 'SIGTERM')));
    this.processes.length = 0;
    this.redisClient?.disconnect();
    if (this.edgeServer) {
      this.edgeServer.closeAllConnections();
      await new Promise<void>((resolve) => this.edgeServer?.close(() => resolve()));
    }
    await this.gatewayBalancer?.close().catch(() => undefined);
    await this.pool.end().catch(() => undefined);
    await this.twilioProxy.close().catch(() => undefined);
    await this.openaiProxy.close().catch(() => undefined);
    await this.gatewayRedisRelay.close().catch(() => undefined);
    await this.twilio.close().catch(() => undefined);
    await this.openai.close().catch(() => undefined);
    await this.data.stop();
  }
}
