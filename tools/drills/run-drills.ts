// `npm run drills`: fault drills against a private stack. Each drill sends signed
// inbound texts from its own phones at a fixed rate through the edge, injects one fault, waits
// until the reply path has settled, and counts, per text, the replies the fake Twilio accepted:
//   lost       a text that got no reply sent
//   sent twice a text whose reply the fake Twilio accepted two or more times
//   5xx        webhook answers of 500 and up (and webhooks that got no answer at all)
// Postgres is read beside it (inbound stored, reply rows, replies not yet delivered).
// Prints the table and writes bench-results/drills.md.
//
// Options: --quick (fewer texts, 60 s outage) --messages=<300> --rate=<20 per second>
// --outage=<600 seconds of Twilio outage> --model-failure=<60 seconds> --burst=<30 seconds of
// Twilio 429s, and of 500s> --only=<drill,drill>
// --data=<private|shared> (default private when redis-server and Postgres binaries are here)
// --out=<bench-results/drills.md>; --list prints the drills.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fictionalPhoneAt } from '../seed/phones';
import { type DataMode, findPostgresBin } from './data';
import type { FaultProxy } from './fault-proxy';
import { DrillStack, OUR_NUMBER, type ServiceProcess } from './stack';

const ROOT = path.resolve(__dirname, '../..');

export interface DrillRow {
  drill: string;
  inbound: number;
  replies: number;
  lost: number;
  sentTwice: number;
  http5xx: number;
  /** What happened, and what Postgres shows. */
  notes: string;
  /** Set when the drill could not run here (the other counts are then 0). */
  skipped: string | null;
  seconds: number;
}

export interface DrillOptions {
  messages: number;
  rate: number;
  outageSeconds: number;
  modelFailureSeconds: number;
  /** How long a Twilio 429 or 500 burst lasts. */
  burstSeconds: number;
  quick: boolean;
  data: DataMode;
  only: string[] | null;
  out: string | null;
  log: (message: string) => void;
}

interface Drill {
  name: string;
  /** What the drill does, for --list and the README. */
  what: string;
  run(ctx: DrillContext): Promise<DrillRow>;
}

interface DrillContext {
  stack: DrillStack;
  options: DrillOptions;
  index: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const QUESTIONS = [
  'How often should I water my tomatoes in July?',
  'What is eating holes in my basil leaves?',
  'When should I prune my roses?',
  'How do I improve clay soil for a vegetable bed?',
  'Can I grow lettuce in partial shade?',
  'Why are my cucumber leaves turning yellow?',
  'What should I plant after garlic comes out?',
  'How deep do I sow carrot seeds?',
];

// ---------------------------------------------------------------------------------------------
// Load

interface LoadPlan {
  messages: number;
  rate: number;
  /** How many times each text's webhook is posted (same MessageSid), all at once. */
  copies?: (i: number) => number;
  /** Called once when this share (0..1) of the texts has been posted; the load goes on meanwhile. */
  faultAt?: number;
  fault?: () => Promise<string>;
  /** How long the reply path may take to settle after the last text, at most. */
  settleMs: number;
  /** Not before this time (ms since epoch) may a still reply path count as stuck. */
  stallFrom?: number;
  /**
   * Not before this time may an empty reply path (no job, no reply row waiting) count as settled
   * while texts are unanswered: texts stored with no job wait for the inbound sweep.
   */
  idleFrom?: number;
}

interface LoadResult {
  phones: string[];
  /** When each phone's text was first posted (ms since epoch). */
  postedAt: Map<string, number>;
  sids: string[];
  http5xx: number;
  /** The 5xx answers by status, e.g. "3x 502". */
  errorAnswers: string;
  noAnswer: number;
  faultNote: string;
}

const sidOf = (drillIndex: number, i: number): string =>
  `SM${drillIndex.toString(16).padStart(2, '0')}${i.toString(16).padStart(6, '0')}${'0'.repeat(24)}`;

// Each drill texts from a block of ten area codes of its own: up to 1,000 fictional numbers.
const phoneOf = (drillIndex: number, i: number): string => fictionalPhoneAt(i, 200 + drillIndex * 10, 10);

async function sendLoad(ctx: DrillContext, plan: LoadPlan): Promise<LoadResult> {
  const { stack } = ctx;
  const phones: string[] = [];
  const postedAt = new Map<string, number>();
  const sids: string[] = [];
  let http5xx = 0;
  let noAnswer = 0;
  const statuses = new Map<number, number>();
  const posts: Promise<void>[] = [];
  let faultPromise: Promise<string> | null = null;
  const faultIndex = plan.fault ? Math.floor(plan.messages * (plan.faultAt ?? 0.4)) : -1;
  const started = Date.now();
  for (let i = 0; i < plan.messages; i += 1) {
    const due = started + (i * 1000) / plan.rate;
    if (due > Date.now()) await sleep(due - Date.now());
    if (i === faultIndex && plan.fault) faultPromise = plan.fault();
    const phone = phoneOf(ctx.index, i);
    const sid = sidOf(ctx.index, i);
    phones.push(phone);
    postedAt.set(phone, Date.now());
    sids.push(sid);
    const copies = plan.copies?.(i) ?? 1;
    for (let copy = 0; copy < copies; copy += 1) {
      posts.push(
        stack.twilio
          .sendInbound(stack.webhookUrl, {
            From: phone,
            To: OUR_NUMBER,
            Body: `${QUESTIONS[i % QUESTIONS.length]} (${i})`,
            MessageSid: sid,
          })
          .then(
            (answer) => {
              if (answer.status >= 500) {
                http5xx += 1;
                statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
              }
            },
            () => {
              noAnswer += 1;
            },
          ),
      );
    }
  }
  // A fault due at the end of the load (faultAt 1) starts once every text is posted.
  if (faultPromise === null && plan.fault) faultPromise = plan.fault();
  await Promise.all(posts);
  const faultNote = faultPromise === null ? '' : await faultPromise;
  const errorAnswers = [...statuses.entries()].map(([status, n]) => `${n}x ${status}`).join(', ');
  return { phones, postedAt, sids, http5xx, errorAnswers, noAnswer, faultNote };
}

interface Settled {
  sendsByPhone: Map<string, number>;
  waitedMs: number;
  timedOut: boolean;
}

/** Replies the fake Twilio accepted for these phones, by phone. */
function sendsByPhone(stack: DrillStack, phones: Set<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const message of stack.twilio.sent) {
    if (phones.has(message.to)) counts.set(message.to, (counts.get(message.to) ?? 0) + 1);
  }
  return counts;
}

/** Reply rows of these phones still waiting to be handed to Twilio. */
async function unsentReplies(stack: DrillStack, phones: string[]): Promise<number> {
  const { rows } = await stack.pool.query<{ n: string }>(
    `SELECT count(*) AS n FROM messages m JOIN users u ON u.id = m.user_id
      WHERE u.phone_number = ANY($1) AND m.direction = 'outbound' AND m.status IN ('queued', 'pending', 'sending')`,
    [phones],
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * Waits until every text has a reply and no second copy follows for a few seconds; or until
 * nothing is left to do (no job pending in Redis, no reply row waiting) and nothing moved for a
 * few seconds; or until nothing has moved for `stallMs` (counted from `stallFrom` at the
 * earliest: an outage holds everything still on purpose); or `settleMs` at most.
 */
async function settle(
  stack: DrillStack,
  phones: string[],
  limits: { settleMs: number; stallMs: number; stallFrom: number; idleFrom: number },
): Promise<Settled> {
  const wanted = new Set(phones);
  const started = Date.now();
  let lastState = '';
  let lastChange = Date.now();
  for (;;) {
    const counts = sendsByPhone(stack, wanted);
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    let pending: number | null = null;
    try {
      // Webhooks the edge keeps for a replay are texts still on their way.
      pending = (await stack.pendingJobs()) + (await unsentReplies(stack, phones)) + stack.spooledWebhooks;
    } catch {
      // Redis or Postgres down (a restart drill): keep waiting
    }
    const state = `${total}/${pending ?? 'down'}`;
    if (state !== lastState) {
      lastState = state;
      lastChange = Date.now();
    }
    const now = Date.now();
    const quietMs = now - lastChange;
    const result = (timedOut: boolean): Settled => ({
      sendsByPhone: counts,
      waitedMs: now - started,
      timedOut,
    });
    if (counts.size === wanted.size && quietMs >= 3000) return result(false);
    if (pending === 0 && quietMs >= 5000 && now >= limits.idleFrom) return result(false);
    if (now - Math.max(lastChange, limits.stallFrom) >= limits.stallMs) return result(true);
    if (now - started >= limits.settleMs) return result(true);
    await sleep(1000);
  }
}

interface StoredCounts {
  inbound: number;
  replyRows: number;
  notDelivered: Record<string, number>;
}

async function stored(stack: DrillStack, phones: string[], sids: string[]): Promise<StoredCounts> {
  const inbound = await stack.pool.query<{ n: string }>(
    `SELECT count(*) AS n FROM messages WHERE direction = 'inbound' AND provider_sid = ANY($1)`,
    [sids],
  );
  const replies = await stack.pool.query<{ status: string; n: string }>(
    `SELECT m.status, count(*) AS n FROM messages m JOIN users u ON u.id = m.user_id
      WHERE u.phone_number = ANY($1) AND m.direction = 'outbound' GROUP BY m.status`,
    [phones],
  );
  const notDelivered: Record<string, number> = {};
  let replyRows = 0;
  for (const row of replies.rows) {
    replyRows += Number(row.n);
    if (row.status !== 'delivered') notDelivered[row.status] = Number(row.n);
  }
  return { inbound: Number(inbound.rows[0]?.n ?? 0), replyRows, notDelivered };
}

/** Runs one load with its fault and turns what the fake Twilio and Postgres show into a row. */
async function measure(
  ctx: DrillContext,
  name: string,
  plan: LoadPlan,
  extraNotes: () => string[] = () => [],
): Promise<DrillRow> {
  const started = Date.now();
  const modelCallsBefore = ctx.stack.openai.completions.length;
  const spoolBefore = await ctx.stack.spoolCounts();
  const load = await sendLoad(ctx, plan);
  const settled = await settle(ctx.stack, load.phones, {
    settleMs: plan.settleMs,
    stallMs: ctx.options.quick ? 60_000 : 90_000,
    stallFrom: plan.stallFrom ?? 0,
    idleFrom: plan.idleFrom ?? 0,
  });
  // A moment more for late duplicates and status callbacks.
  await sleep(1000);
  const counts = sendsByPhone(ctx.stack, new Set(load.phones));
  const db = await stored(ctx.stack, load.phones, load.sids);
  const spoolAfter = await ctx.stack.spoolCounts();
  const spool = {
    spooled: spoolAfter.spooled - spoolBefore.spooled,
    replayed: spoolAfter.replayed - spoolBefore.replayed,
    dropped: spoolAfter.dropped - spoolBefore.dropped,
  };
  const latencies: number[] = [];
  const firstSend = new Map<string, number>();
  for (const message of ctx.stack.twilio.sent) {
    if (!firstSend.has(message.to)) firstSend.set(message.to, message.dateCreated.getTime());
  }
  for (const phone of load.phones) {
    const sentAt = firstSend.get(phone);
    const postedAt = load.postedAt.get(phone);
    if (sentAt !== undefined && postedAt !== undefined) latencies.push((sentAt - postedAt) / 1000);
  }
  latencies.sort((a, b) => a - b);
  let replies = 0;
  let sentTwice = 0;
  for (const phone of load.phones) {
    const n = counts.get(phone) ?? 0;
    if (n >= 1) replies += 1;
    if (n >= 2) sentTwice += 1;
  }
  const notes = [
    load.faultNote,
    `db: ${db.inbound} inbound stored, ${db.replyRows} reply rows`,
    Object.keys(db.notDelivered).length > 0
      ? `not delivered: ${Object.entries(db.notDelivered)
          .map(([s, n]) => `${n} ${s}`)
          .join(', ')}`
      : '',
    latencies.length > 0
      ? `reply sent after ${latencies[Math.floor(latencies.length / 2)]?.toFixed(1)} s p50, ${latencies[latencies.length - 1]?.toFixed(1)} s max`
      : '',
    load.errorAnswers === '' ? '' : `webhooks answered ${load.errorAnswers}`,
    spool.spooled + spool.replayed + spool.dropped > 0
      ? `edge spool: ${spool.spooled} webhooks kept and answered 200, ${spool.replayed} replayed, ${spool.dropped} dropped, ${ctx.stack.spooledWebhooks} still kept`
      : '',
    load.noAnswer > 0 ? `${load.noAnswer} webhooks got no answer in 15 s` : '',
    settled.timedOut
      ? `gave up waiting ${Math.round(settled.waitedMs / 1000)} s after the last text (nothing moved, or the limit)`
      : `settled ${Math.round(settled.waitedMs / 1000)} s after the last text`,
    `${ctx.stack.openai.completions.length - modelCallsBefore} model calls`,
    ...extraNotes(),
  ].filter((note) => note !== '');
  return {
    drill: name,
    inbound: load.sids.length,
    replies,
    lost: load.sids.length - replies,
    sentTwice,
    http5xx: load.http5xx + load.noAnswer,
    notes: notes.join('; '),
    skipped: null,
    seconds: Math.round((Date.now() - started) / 1000),
  };
}

const skippedRow = (name: string, why: string): DrillRow => ({
  drill: name,
  inbound: 0,
  replies: 0,
  lost: 0,
  sentTwice: 0,
  http5xx: 0,
  notes: '',
  skipped: why,
  seconds: 0,
});

/** SIGKILL a replica, start it again at once (on the same port), and say how long it was gone. */
async function killAndRestart(ctx: DrillContext, service: ServiceProcess): Promise<string> {
  const killedAt = Date.now();
  await ctx.stack.kill(service, 'SIGKILL');
  await ctx.stack.startService(service.name, service.replica);
  return `${service.label} SIGKILLed, back in ${((Date.now() - killedAt) / 1000).toFixed(1)} s`;
}

// ---------------------------------------------------------------------------------------------
// The drills

/** The most a drill waits for the reply path after its last text (a stuck one gives up sooner). */
const settleFor = (ctx: DrillContext, extraMs = 0): number =>
  (ctx.options.quick ? 240_000 : 600_000) + extraMs;

/** The load most drills send: --messages texts at --rate, and what else the drill changes. */
const loadOf = (ctx: DrillContext, more: Partial<LoadPlan> = {}): LoadPlan => ({
  messages: ctx.options.messages,
  rate: ctx.options.rate,
  settleMs: settleFor(ctx),
  ...more,
});

interface ProxyFault {
  proxy: FaultProxy;
  seconds: number;
  status: number;
  /** What the notes call the calls it failed. */
  calls: string;
}

/** Every Twilio API call answered `status` for `seconds`. */
const twilioAnswers = (ctx: DrillContext, status: number, seconds: number): ProxyFault => ({
  proxy: ctx.stack.twilioProxy,
  seconds,
  status,
  calls: `Twilio calls answered ${status}`,
});

/**
 * The load measured while `proxy` answers every call with `status` for `seconds`; the row notes
 * how many calls it failed. The proxy answers normally again afterwards, whatever happened.
 */
async function measureFailing(
  ctx: DrillContext,
  name: string,
  fault: ProxyFault,
  load: Partial<LoadPlan> = {},
): Promise<DrillRow> {
  const { proxy } = fault;
  const before = proxy.failed;
  proxy.failFor(fault.seconds * 1000, fault.status);
  try {
    return await measure(ctx, name, loadOf(ctx, load), () => [`${proxy.failed - before} ${fault.calls}`]);
  } finally {
    proxy.clear();
  }
}

const twilioBurst = (status: 429 | 500): Drill => ({
  name: `twilio-${status}-burst`,
  what: `every Twilio API call answered ${status} for --burst seconds (30; 10 with --quick), the load in it`,
  run: (ctx) =>
    measureFailing(
      ctx,
      `Twilio ${status} burst ${ctx.options.burstSeconds} s`,
      twilioAnswers(ctx, status, ctx.options.burstSeconds),
    ),
});

/** A private data service stopped at 40% of the load, down 2 s, started again (skipped on shared ones). */
const dataRestart = (
  service: 'redis' | 'postgres',
  label: string,
  stopped: string,
  program: string,
): Drill => ({
  name: `${service}-restart`,
  what: `${stopped} at 40% of the load, down 2 s, started again`,
  async run(ctx) {
    const { data } = ctx.stack;
    const why = data.restartUnavailable[service];
    if (why !== null) return skippedRow(`${label} restart`, why);
    return measure(
      ctx,
      `${label} restart`,
      loadOf(ctx, {
        fault: async () => {
          const at = Date.now();
          await (service === 'redis' ? data.restartRedis(2000) : data.restartPostgres(2000));
          return `${program} restarted, answering again after ${((Date.now() - at) / 1000).toFixed(1)} s`;
        },
      }),
    );
  },
});

const DRILLS: Drill[] = [
  {
    name: 'baseline',
    what: 'no fault: the load alone',
    run: (ctx) => measure(ctx, 'baseline', loadOf(ctx)),
  },
  {
    name: 'duplicate-webhooks',
    what: 'every text posted twice at once, every tenth five times (same MessageSid)',
    run: (ctx) => measure(ctx, 'duplicate-webhooks', loadOf(ctx, { copies: (i) => (i % 10 === 0 ? 5 : 2) })),
  },
  {
    name: 'ai-responder-sigkill',
    what: 'ai-responder SIGKILLed at 40% of the load, restarted at once',
    run: (ctx) =>
      measure(
        ctx,
        'ai-responder SIGKILL',
        loadOf(ctx, { fault: () => killAndRestart(ctx, ctx.stack.service('ai-responder')) }),
      ),
  },
  {
    name: 'sms-gateway-sigkill',
    what: 'two sms-gateway replicas (as in compose and k8s); the first (webhooks and the send worker) SIGKILLed at 40% of the load, restarted at once',
    async run(ctx) {
      const { stack } = ctx;
      const second = await stack.startService('sms-gateway', 1);
      try {
        return await measure(
          ctx,
          'sms-gateway SIGKILL',
          loadOf(ctx, { fault: () => killAndRestart(ctx, stack.service('sms-gateway')) }),
        );
      } finally {
        // Back to one replica for the drills after this one.
        await stack.remove(second);
      }
    },
  },
  {
    name: 'sms-gateway-kill-in-flight',
    what: 'Twilio answers sends 5 s late; sms-gateway SIGKILLed while sends are in flight (accepted, not yet answered)',
    async run(ctx) {
      const { stack } = ctx;
      const messages = Math.max(20, Math.round(ctx.options.messages / 3));
      stack.twilioProxy.holdAnswers(5000);
      try {
        return await measure(ctx, 'sms-gateway kill, sends in flight', {
          messages,
          rate: ctx.options.rate,
          faultAt: 1,
          fault: async () => {
            // Every text stored first: this drill kills the send path, not webhooks (on a loaded
            // machine the last posts are still being answered, and a restart slower than the
            // edge's retry budget would lose the ones not yet stored).
            const sids = Array.from({ length: messages }, (_, i) => sidOf(ctx.index, i));
            const storing = Date.now();
            while (Date.now() - storing < 60_000) {
              const { rows } = await stack.pool.query<{ n: string }>(
                `SELECT count(*) AS n FROM messages WHERE provider_sid = ANY($1)`,
                [sids],
              );
              if (Number(rows[0]?.n ?? 0) >= messages) break;
              await sleep(100);
            }
            // At least 3 sends held at once, or (replies trickling in slowly) at least one after 20 s.
            const started = Date.now();
            const enough = (): boolean =>
              stack.twilioProxy.inFlight >= 3 ||
              (stack.twilioProxy.inFlight >= 1 && Date.now() - started > 20_000);
            while (!enough() && Date.now() - started < 120_000) await sleep(20);
            const inFlight = stack.twilioProxy.inFlight;
            const killedAt = Date.now();
            await stack.kill(stack.service('sms-gateway'), 'SIGKILL');
            stack.twilioProxy.holdAnswers(0);
            await stack.startService('sms-gateway');
            return `sms-gateway SIGKILLed with ${inFlight} sends in flight, back in ${((Date.now() - killedAt) / 1000).toFixed(1)} s`;
          },
          settleMs: settleFor(ctx),
        });
      } finally {
        stack.twilioProxy.holdAnswers(0);
      }
    },
  },
  {
    name: 'sms-gateway-kill-before-enqueue',
    what: "sms-gateway's Redis stalled at 90% of the load (webhooks commit their text, then wait in the queue add), SIGKILLed, down past the edge's 12 s retry budget, restarted: texts stored with no job are left to the inbound sweep, webhooks no gateway took are kept in the edge's spool and replayed",
    async run(ctx) {
      const { stack } = ctx;
      const relay = stack.gatewayRedisRelay;
      const { messages, rate } = ctx.options;
      const faultAt = 0.9;
      try {
        return await measure(ctx, 'sms-gateway kill before enqueue', {
          messages,
          rate,
          faultAt,
          fault: async () => {
            const stalledAt = new Date();
            relay.stall();
            // The rest of the load arrives meanwhile: stored, then waiting on Redis.
            await sleep(((messages * (1 - faultAt)) / rate) * 1000 + 1500);
            const gateway = stack.service('sms-gateway');
            await stack.kill(gateway, 'SIGKILL');
            const killedAt = Date.now();
            relay.dropHeld();
            const { rows } = await stack.pool.query<{ id: string }>(
              `SELECT id FROM messages WHERE direction = 'inbound' AND created_at >= $1`,
              [stalledAt],
            );
            let noJob = 0;
            for (const row of rows)
              if (!(await stack.jobExists('sms.inbound', `inbound-${row.id}`))) noJob += 1;
            // Down longer than the edge retries (EDGE_WEBHOOK_RETRY_BUDGET_MS, 12 s): those webhooks
            // are kept in the edge's spool, answered 200, and replayed once the gateway is back.
            await sleep(Math.max(0, 14_000 - (Date.now() - killedAt)));
            await stack.startService('sms-gateway');
            return `Redis stalled for sms-gateway, SIGKILLed with ${noJob} of ${rows.length} texts stored since the stall and no job, back in ${((Date.now() - killedAt) / 1000).toFixed(1)} s`;
          },
          settleMs: settleFor(ctx),
          // The sweep takes texts 30 s old, every 30 s (SMS_INBOUND_SWEEP_AFTER_MS, _EVERY_MS): the
          // stored texts wait up to a minute or so after the restart with nothing in Redis.
          stallFrom: Date.now() + 150_000,
          idleFrom: Date.now() + ((messages / rate) * 1000 + 16_000 + 90_000),
        });
      } finally {
        relay.resume();
      }
    },
  },
  dataRestart('redis', 'Redis', 'the private redis-server (append-only file) stopped', 'redis-server'),
  dataRestart('postgres', 'Postgres', 'the private Postgres stopped (fast)', 'postgres'),
  {
    name: 'model-failing',
    what: 'every model call answers 500 for --model-failure seconds (60), the load spread over that window',
    run: (ctx) => {
      const seconds = ctx.options.modelFailureSeconds;
      return measureFailing(
        ctx,
        `model failing ${seconds} s`,
        { proxy: ctx.stack.openaiProxy, seconds, status: 500, calls: 'model calls failed' },
        // The load spread over the failure.
        { rate: Math.min(ctx.options.rate, ctx.options.messages / seconds) },
      );
    },
  },
  twilioBurst(429),
  twilioBurst(500),
  {
    name: 'ai-responder-replicas',
    what: 'two ai-responder replicas; the first SIGKILLed at 40% of the load and not restarted',
    async run(ctx) {
      const { stack } = ctx;
      const second = await stack.startService('ai-responder', 1);
      const first = stack.service('ai-responder', 0);
      const row = await measure(
        ctx,
        'ai-responder x2, one killed',
        loadOf(ctx, {
          fault: async () => {
            await stack.kill(first, 'SIGKILL');
            return `${first.label} SIGKILLed, ${second.label} left alone`;
          },
          // The dead replica's jobs go back to the queue only once their locks lapse (BullMQ's
          // lockDuration, 30 s) and the survivor's stalled-job check runs (every 30 s): up to a minute
          // in which nothing may move, which is not a stuck path.
          stallFrom: Date.now() + (ctx.options.messages / ctx.options.rate) * 1000 + 60_000,
        }),
      );
      // Back to one replica (the first) for the drills after this one.
      await stack.startService('ai-responder', 0);
      await stack.remove(second);
      return row;
    },
  },
  {
    name: 'twilio-outage',
    what: 'every Twilio API call answers 503 for --outage seconds (600; 60 with --quick), the load in its first part',
    run: (ctx) => {
      const seconds = ctx.options.outageSeconds;
      // Replies held through the outage go out after it: wait for them past its end.
      return measureFailing(ctx, `Twilio outage ${seconds} s`, twilioAnswers(ctx, 503, seconds), {
        settleMs: seconds * 1000 + settleFor(ctx),
        stallFrom: Date.now() + seconds * 1000,
      });
    },
  },
];

// ---------------------------------------------------------------------------------------------
// Table

function formatTable(rows: DrillRow[]): string {
  const header = ['drill', 'inbound', 'replies', 'lost', 'sent twice', '5xx'];
  const body = rows.map((r) =>
    r.skipped === null
      ? [
          r.drill,
          String(r.inbound),
          String(r.replies),
          String(r.lost),
          String(r.sentTwice),
          String(r.http5xx),
        ]
      : [r.drill, 'skipped', '', '', '', ''],
  );
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]?.length ?? 0)));
  const line = (cells: string[]): string =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(header), rule, ...body.map(line)].join('\n');
}

function markdownReport(rows: DrillRow[], options: DrillOptions, startedAt: Date, seconds: number): string {
  const notes = rows.map(
    (r) => `- **${r.drill}** (${r.skipped === null ? `${r.seconds} s` : 'skipped'}): ${r.skipped ?? r.notes}`,
  );
  return [
    '# Fault drills',
    '',
    `Run ${startedAt.toISOString()} on ${os.hostname()} (${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(
        ' ',
      )} at the end), ${Math.round(seconds)} s in all: \`npm run drills --${options.quick ? ' --quick' : ''}\`; ` +
      `${options.messages} texts per drill from as many phones at ${options.rate}/s through the edge; ` +
      `Postgres and Redis ${options.data === 'private' ? 'private instances of the run' : "a database and prefix of the run's own on the shared servers"}; ` +
      `Twilio outage ${options.outageSeconds} s; Twilio bursts ${options.burstSeconds} s; model failing ${options.modelFailureSeconds} s.`,
    '',
    'lost: texts with no reply sent (counted in the fake Twilio); sent twice: texts whose reply the fake Twilio accepted two or more times; 5xx: webhook answers of 500 and up, and webhooks with no answer.',
    '',
    formatTable(rows),
    '',
    ...notes,
    '',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Running

export interface DrillReport {
  rows: DrillRow[];
  table: string;
}

/** Starts the stack, runs the chosen drills in order, stops the stack. */
export async function runDrills(options: DrillOptions): Promise<DrillReport> {
  const drills = options.only === null ? DRILLS : DRILLS.filter((d) => options.only?.includes(d.name));
  const unknown = (options.only ?? []).filter((name) => !DRILLS.some((d) => d.name === name));
  if (unknown.length > 0) throw new Error(`Unknown drill(s): ${unknown.join(', ')} (see --list)`);
  const startedAt = new Date();
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprout-drills-logs-'));
  options.log(`starting the stack (${options.data} Postgres and Redis; service logs in ${logDir})`);
  const stack = await DrillStack.start({ data: options.data, logDir, log: options.log });
  const rows: DrillRow[] = [];
  // Ctrl-C still stops the services and the private Postgres (pg_ctl runs it detached).
  const interrupted = (): void => {
    options.log('interrupted: stopping the stack');
    void stack.stop().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    await Promise.all([stack.startService('sms-gateway'), stack.startService('ai-responder')]);
    options.log(
      `stack ready in ${Math.round((Date.now() - startedAt.getTime()) / 1000)} s: edge ${stack.edgeUrl}`,
    );
    for (const [index, drill] of drills.entries()) {
      // Each drill starts from a whole stack: every service up, no fault left over.
      for (const service of [...stack.processes]) {
        if (!service.alive) {
          options.log(`${service.label} had exited; starting it again`);
          await stack.startService(service.name, service.replica);
        }
      }
      stack.twilioProxy.clear();
      stack.openaiProxy.clear();
      options.log(`drill ${drill.name}: ${drill.what}`);
      const row = await drill.run({ stack, options, index: index + 1 });
      rows.push(row);
      options.log(
        row.skipped === null
          ? `  ${row.inbound} inbound, ${row.replies} replied, ${row.lost} lost, ${row.sentTwice} sent twice, ${row.http5xx} 5xx (${row.seconds} s): ${row.notes}`
          : `  skipped: ${row.skipped}`,
      );
    }
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await stack.stop();
  }
  const table = formatTable(rows);
  if (options.out !== null) {
    fs.mkdirSync(path.dirname(options.out), { recursive: true });
    fs.writeFileSync(
      options.out,
      markdownReport(rows, options, startedAt, (Date.now() - startedAt.getTime()) / 1000),
    );
  }
  return { rows, table };
}

const USAGE = `npm run drills -- [options]
  --quick              60 texts per drill, 10 s bursts, 60 s outage, 15 s model failure
  --messages=N         texts per drill (300)
  --rate=N             texts per second (20)
  --outage=S           Twilio outage drill length in seconds (600)
  --model-failure=S    model failing drill length in seconds (60)
  --burst=S            Twilio 429/500 burst length in seconds (30)
  --only=a,b           only these drills (see --list)
  --data=private|shared  private Postgres and Redis (default when installed) or the shared servers
  --out=FILE           the report (bench-results/drills.md)
  --list               the drills and what each injects
  --help               this text
`;

function parseOptions(argv: string[]): DrillOptions | 'list' | 'help' {
  const flags = new Map<string, string>();
  for (const arg of argv) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!match?.[1]) throw new Error(`Unknown argument ${arg}`);
    flags.set(match[1], match[2] ?? 'true');
  }
  const known = [
    'quick',
    'messages',
    'rate',
    'outage',
    'model-failure',
    'burst',
    'only',
    'data',
    'out',
    'list',
    'help',
  ];
  for (const name of flags.keys())
    if (!known.includes(name)) throw new Error(`Unknown option --${name}\n\n${USAGE}`);
  if (flags.has('help')) return 'help';
  if (flags.has('list')) return 'list';
  const quick = flags.has('quick');
  const number = (name: string, fallback: number): number => {
    const raw = flags.get(name);
    const value = raw === undefined ? fallback : Number(raw);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
    return value;
  };
  const privateAvailable =
    findPostgresBin() !== null &&
    (process.env.PATH ?? '')
      .split(path.delimiter)
      .some((dir) => dir && fs.existsSync(path.join(dir, 'redis-server')));
  const data = flags.get('data') ?? (privateAvailable ? 'private' : 'shared');
  if (data !== 'private' && data !== 'shared') throw new Error('--data must be private or shared');
  const out = flags.get('out') ?? path.join(ROOT, 'bench-results', 'drills.md');
  const messages = Math.round(number('messages', quick ? 60 : 300));
  if (messages > 1000)
    throw new Error('--messages must be at most 1000 (a drill has 1,000 fictional numbers)');
  return {
    quick,
    messages,
    rate: number('rate', 20),
    outageSeconds: number('outage', quick ? 60 : 600),
    modelFailureSeconds: number('model-failure', quick ? 15 : 60),
    burstSeconds: number('burst', quick ? 10 : 30),
    data,
    only: flags.has('only') ? (flags.get('only') ?? '').split(',').filter(Boolean) : null,
    out: path.resolve(out),
    log: (message) => process.stdout.write(`[drills ${new Date().toISOString().slice(11, 19)}] ${message}\n`),
  };
}

export async function main(argv: string[]): Promise<void> {
  const options = parseOptions(argv);
  if (options === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  if (options === 'list') {
    for (const drill of DRILLS) process.stdout.write(`${drill.name.padEnd(28)} ${drill.what}\n`);
    return;
  }
  const report = await runDrills(options);
  process.stdout.write(`\n${report.table}\n\n`);
  if (options.out !== null) options.log(`written to ${path.relative(ROOT, options.out)}`);
  const failing = report.rows.filter((r) => r.skipped === null && (r.lost > 0 || r.sentTwice > 0));
  if (failing.length > 0) {
    options.log(`${failing.length} drill(s) lost or sent twice: ${failing.map((r) => r.drill).join(', ')}`);
    process.exitCode = 1;
  }
}
