// Known users, conversations and messages for the browser tests of the Users and Messages screens,
// written straight to the test database (the rollup triggers keep the stat cards' counts), and
// the probe those tests use to measure the screens' polling.
import { clearOfUtcMidnight, type FakeTwilio } from '@sprout/testing';
import type { Page } from '@sprout/testing/browser';
import type { DataSource } from 'typeorm';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

export interface InsightUser {
  key: 'pnw' | 'southwest' | 'midwest' | 'newcomer' | 'northeast' | 'tester';
  phone: string;
  isTest: boolean;
  isActive: boolean;
  region: string | null;
  /** Stored in users.profile; the other users keep only users.region (or nothing). */
  profile: Record<string, unknown>;
  totalMessages: number;
  totalTokens: number;
  totalCost: number;
  sentiment: 'positive' | 'negative' | 'frustrated' | 'neutral' | null;
  profileCompletion: number;
  createdDaysAgo: number;
}

/** The five real users and one test user, chosen so every user-table column orders them differently. */
const INSIGHT_USERS: readonly InsightUser[] = [
  {
    key: 'pnw',
    phone: '+15035550201',
    isTest: false,
    isActive: false,
    region: null,
    profile: {
      region: 'Pacific Northwest',
      growingContext: 'Raised beds on a sunny balcony',
      preferences: ['organic', 'native plants'],
      conversationStyle: 'detailed',
    },
    totalMessages: 24,
    totalTokens: 9600,
    totalCost: 0.4321,
    sentiment: 'frustrated',
    profileCompletion: 90,
    createdDaysAgo: 40,
  },
  {
    key: 'southwest',
    phone: '+15035550202',
    isTest: false,
    isActive: true,
    region: 'Southwest',
    profile: {},
    totalMessages: 3,
    totalTokens: 900,
    totalCost: 0.0456,
    sentiment: 'positive',
    profileCompletion: 40,
    createdDaysAgo: 10,
  },
  {
    key: 'midwest',
    phone: '+15035550203',
    isTest: false,
    isActive: true,
    region: 'Midwest',
    profile: {},
    totalMessages: 9,
    totalTokens: 2700,
    totalCost: 0.0012,
    sentiment: 'negative',
    profileCompletion: 65,
    createdDaysAgo: 3,
  },
  {
    key: 'newcomer',
    phone: '+15035550204',
    isTest: false,
    isActive: true,
    region: null,
    profile: {},
    totalMessages: 0,
    totalTokens: 0,
    totalCost: 0,
    sentiment: null,
    profileCompletion: 0,
    createdDaysAgo: 1,
  },
  {
    key: 'northeast',
    phone: '+15035550205',
    isTest: false,
    isActive: false,
    region: 'Northeast',
    profile: {},
    totalMessages: 12,
    totalTokens: 4800,
    totalCost: 1.25,
    sentiment: 'neutral',
    profileCompletion: 20,
    createdDaysAgo: 90,
  },
  {
    key: 'tester',
    phone: '+15035550299',
    isTest: true,
    isActive: true,
    region: 'Test Garden',
    profile: {},
    totalMessages: 3,
    totalTokens: 600,
    totalCost: 0.002,
    sentiment: 'positive',
    profileCompletion: 50,
    createdDaysAgo: 2,
  },
];

export const phoneOf = (key: InsightUser['key']): string => {
  const user = INSIGHT_USERS.find((u) => u.key === key);
  if (!user) throw new Error(`No seeded user ${key}`);
  return user.phone;
};

interface SeedMessage {
  direction: 'inbound' | 'outbound';
  content: string;
  status: string;
  errorMessage?: string;
  at: Date;
}

interface SeedConversation {
  user: InsightUser['key'];
  messages: SeedMessage[];
  topics: string[];
  sentiment: 'positive' | 'negative' | 'frustrated' | 'neutral' | null;
  summary: string | null;
  keyOutcomes: string | null;
  nextSteps: string | null;
  region: string | null;
  experienceLevel: string | null;
  modelUsed: string | null;
  ended: boolean;
}

/** What the tests read back: ids and the figures the stat cards must show. */
export interface InsightSeed {
  userIds: Record<InsightUser['key'], string>;
  conversationIds: {
    /** The inactive Pacific Northwest user's ongoing conversation: every delivery status, five topics. */
    deliveries: string;
    /** The active Southwest user's finished conversation. */
    succulents: string;
    /** The Pacific Northwest user's earlier, finished conversation. */
    garlic: string;
    /** The test user's conversation. */
    tester: string;
  };
  /** Real-user conversations in all (two pages of 20). */
  realConversations: number;
}

/** The delivery rows of the 'deliveries' conversation, in order, with the tooltip each must show. */
export const DELIVERY_TOOLTIPS = [
  'Delivered',
  'Carrier violation (30007)',
  'Unknown error',
  'Pending',
  'Status: queued',
] as const;

export const DELIVERIES_TOPICS = ['tomatoes', 'watering', 'pests', 'soil', 'frost'] as const;

export const DELIVERIES_KEY_OUTCOMES = ['Cover the plants below 50°F', 'Water at the base in the morning'];

/** Real-user filler conversations of the Midwest and Northeast users, for a second page. */
const FILLERS = { midwest: 9, northeast: 12 } as const;

/** The stat cards for this seed (real users, then test users). */
export const INSIGHT_STATS = {
  users: {
    real: { users: '5', activeUsers: '2', newUsers: '2', totalMessages: '48', engagementRate: '40%' },
    test: { users: '1', activeUsers: '1', newUsers: '1', totalMessages: '3', engagementRate: '100%' },
  },
  messages: {
    real: {
      totalMessages: '48',
      messagesToday: '13',
      change: 'No change from yesterday',
      responseRate: '85.7%',
      failed: '2',
    },
    test: {
      totalMessages: '3',
      messagesToday: '2',
      change: '+100% from yesterday',
      responseRate: '100%',
      failed: '0',
    },
  },
} as const;

/**
 * How long a browser test file may run after seeding (a whole file took 6.5 minutes on a loaded
 * machine): its "today" cards hold only while the UTC day it seeded lasts.
 */
export const SEEDED_DAY_MARGIN_MS = 10 * MINUTE_MS;
/** A beforeAll that seeds may first wait out the end of the UTC day. */
export const SEEDING_TIMEOUT_MS = SEEDED_DAY_MARGIN_MS + 5 * MINUTE_MS;

/**
 * Seeds the users, conversations and messages above. "Today" messages lie between the start of
 * the UTC day and now, so the cards' today and 24-hour figures hold at any time of day; with no
 * `now`, seeding waits until the UTC day has SEEDED_DAY_MARGIN_MS left.
 */
export async function seedInsight(db: DataSource, at?: Date): Promise<InsightSeed> {
  const now = at ?? (await clearOfUtcMidnight(SEEDED_DAY_MARGIN_MS));
  const startOfToday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const recentBase = Math.max(now.getTime() - 20 * MINUTE_MS, startOfToday);
  const recent = (second: number) => new Date(Math.min(recentBase + second * 1000, now.getTime()));
  const daysAgo = (days: number, plusMinutes = 0) =>
    new Date(now.getTime() - days * DAY_MS + plusMinutes * MINUTE_MS);
  const twoDaysAgoNoon = (plusMinutes: number) =>
    new Date(startOfToday - 2 * DAY_MS + 12 * HOUR_MS + plusMinutes * MINUTE_MS);

  const userIds = {} as Record<InsightUser['key'], string>;
  for (const user of INSIGHT_USERS) {
    const [row] = await db.query<{ id: string }[]>(
      `INSERT INTO users (phone_number, is_test_user, test_user_name, is_active, region, profile,
         total_messages, total_tokens, total_cost, average_sentiment, profile_completion_score, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
      [
        user.phone,
        user.isTest,
        user.isTest ? 'Test gardener' : null,
        user.isActive,
        user.region,
        JSON.stringify(user.profile),
        user.totalMessages,
        user.totalTokens,
        user.totalCost,
        user.sentiment,
        user.profileCompletion,
        daysAgo(user.createdDaysAgo),
      ],
    );
    if (!row) throw new Error(`Could not seed user ${user.key}`);
    userIds[user.key] = row.id;
  }

  const reply = (content: string, status: string, at: Date, errorMessage?: string): SeedMessage => ({
    direction: 'outbound',
    content,
    status,
    at,
    ...(errorMessage === undefined ? {} : { errorMessage }),
  });
  const ask = (content: string, at: Date): SeedMessage => ({
    direction: 'inbound',
    content,
    status: 'received',
    at,
  });

  const deliveries: SeedConversation = {
    user: 'pnw',
    topics: [...DELIVERIES_TOPICS],
    sentiment: 'frustrated',
    summary: 'Tomato leaves curling after a cold night on the balcony',
    // One item per line, as the summary job stores them.
    keyOutcomes: DELIVERIES_KEY_OUTCOMES.join('\n'),
    nextSteps: '- Check the undersides of leaves for aphids\n- Mulch the beds',
    region: 'Pacific Northwest',
    experienceLevel: 'beginner',
    modelUsed: 'gpt-4o-mini',
    ended: false,
    messages: [
      ask('My tomato leaves are curling, what is wrong?', recent(10)),
      reply('Curling after a cold night is usually stress, not disease.', 'delivered', recent(11)),
      ask('Should I cover them tonight?', recent(12)),
      reply('Yes: cover them when it drops below 50°F.', 'failed', recent(13), 'Carrier violation (30007)'),
      ask('Did you get my last text?', recent(14)),
      reply('Sorry, resending: cover them below 50°F.', 'undelivered', recent(15)),
      ask('What about aphids?', recent(16)),
      reply('Check under the leaves and rinse them off with water.', 'pending', recent(17)),
      ask('Thanks!', recent(18)),
      reply('Happy growing! Text me any time.', 'queued', recent(19)),
    ],
  };
  const succulents: SeedConversation = {
    user: 'southwest',
    topics: ['succulents'],
    sentiment: 'positive',
    summary: 'Repotting succulents in a desert garden',
    keyOutcomes: null,
    nextSteps: null,
    region: 'Southwest',
    experienceLevel: 'intermediate',
    modelUsed: 'gpt-4o-mini',
    ended: true,
    messages: [
      ask('When can I repot my succulents?', recent(0)),
      ask('They are in small clay pots.', recent(1)),
      reply('Repot them in spring, in a gritty cactus mix.', 'delivered', recent(2)),
    ],
  };
  const garlicMessages: SeedMessage[] = [];
  for (let n = 0; n < 7; n += 1) {
    // At noon of the UTC day before yesterday: one UTC day whatever the time of day (a time
    // counted back from now crosses a UTC midnight in part of the night).
    garlicMessages.push(ask(`Garlic question ${n + 1}: how deep should I plant?`, twoDaysAgoNoon(n * 2)));
    garlicMessages.push(
      reply(`Plant cloves 2 inches deep, pointy end up (${n + 1}).`, 'delivered', twoDaysAgoNoon(n * 2 + 1)),
    );
  }
  const garlic: SeedConversation = {
    user: 'pnw',
    topics: ['garlic', 'fall planting'],
    sentiment: 'positive',
    summary: 'Planning a fall garlic bed',
    keyOutcomes: 'Plant in October\nUse hardneck varieties',
    nextSteps: null,
    region: 'Pacific Northwest',
    experienceLevel: 'beginner',
    modelUsed: 'gpt-4o-mini',
    ended: true,
    messages: garlicMessages,
  };
  const startOfYesterdayPlus = new Date(startOfToday - DAY_MS + 1000);
  const tester: SeedConversation = {
    user: 'tester',
    topics: ['herbs'],
    sentiment: 'positive',
    summary: 'Testing herb advice',
    keyOutcomes: null,
    nextSteps: null,
    region: 'Test Garden',
    experienceLevel: null,
    modelUsed: 'gpt-4o-mini',
    ended: false,
    messages: [
      ask('Is basil an annual?', startOfYesterdayPlus),
      ask('How often do I water basil?', recent(20)),
      reply('Water basil when the top inch of soil is dry.', 'delivered', recent(21)),
    ],
  };
  const fillers: SeedConversation[] = [];
  for (const [user, count] of Object.entries(FILLERS) as [keyof typeof FILLERS, number][]) {
    const firstDay = user === 'midwest' ? 3 : 20;
    for (let n = 0; n < count; n += 1) {
      fillers.push({
        user,
        topics: ['compost'],
        sentiment: 'neutral',
        summary: `Compost pile check-in ${n + 1}`,
        keyOutcomes: null,
        nextSteps: null,
        region: user === 'midwest' ? 'Midwest' : 'Northeast',
        experienceLevel: 'intermediate',
        modelUsed: null,
        ended: true,
        messages: [ask(`Is my compost ready? (${n + 1})`, daysAgo(firstDay, -n * 60))],
      });
    }
  }

  const insert = async (conversation: SeedConversation): Promise<string> => {
    const owner = INSIGHT_USERS.find((u) => u.key === conversation.user);
    if (!owner) throw new Error(`No seeded user ${conversation.user}`);
    const first = conversation.messages[0]?.at ?? now;
    const last = conversation.messages.at(-1)?.at ?? now;
    const [row] = await db.query<{ id: string }[]>(
      `INSERT INTO conversations (user_id, is_test_user, message_count, started_at, last_message_at, ended_at,
         sentiment, topics, summary, key_outcomes, next_steps, region, experience_level, model_used)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
      [
        userIds[conversation.user],
        owner.isTest,
        conversation.messages.length,
        first,
        last,
        conversation.ended ? last : null,
        conversation.sentiment,
        conversation.topics,
        conversation.summary,
        conversation.keyOutcomes,
        conversation.nextSteps,
        conversation.region,
        conversation.experienceLevel,
        conversation.modelUsed,
      ],
    );
    if (!row) throw new Error('Could not seed a conversation');
    for (const message of conversation.messages) {
      const outbound = message.direction === 'outbound';
      await db.query(
        `INSERT INTO messages (user_id, conversation_id, direction, content, status, error_message, cost,
           token_usage, model_used, is_test_user, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          userIds[conversation.user],
          row.id,
          message.direction,
          message.content,
          message.status,
          message.errorMessage ?? null,
          outbound ? 0.0012 : 0,
          outbound ? 400 : 0,
          outbound ? conversation.modelUsed : null,
          owner.isTest,
          message.at,
        ],
      );
    }
    // The user's last message is the latest of their conversations'.
    await db.query(
      `UPDATE users SET last_message_at = greatest(coalesce(last_message_at, $2), $2) WHERE id = $1`,
      [userIds[conversation.user], last],
    );
    return row.id;
  };

  const conversationIds = {
    deliveries: await insert(deliveries),
    succulents: await insert(succulents),
    garlic: await insert(garlic),
    tester: await insert(tester),
  };
  for (const filler of fillers) await insert(filler);

  return { userIds, conversationIds, realConversations: 3 + fillers.length };
}

/**
 * Sends a text through the fake Twilio's REST API and answers its sid, so a seeded message can
 * carry a provider sid whose status Twilio knows (the fake walks it to delivered).
 */
export async function sendThroughFakeTwilio(twilio: FakeTwilio, to: string, body: string): Promise<string> {
  const response = await fetch(`${twilio.url}/2010-04-01/Accounts/${twilio.accountSid}/Messages.json`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Authorization: `Basic ${Buffer.from(`${twilio.accountSid}:${twilio.authToken}`).toString('base64')}`,
    },
    body: new URLSearchParams({ To: to, From: '+15005550006', Body: body }).toString(),
  });
  if (response.status !== 201) throw new Error(`The fake Twilio answered ${response.status}`);
  const { sid } = (await response.json()) as { sid: string };
  return sid;
}

interface FetchLog {
  /**
   * Path of every fetch the page started, the page clock's Date.now() when it started (`at`) and
   * when the page had read its answer (`end`: where react-query restarts its refetch interval).
   */
  calls: { path: string; at: number; end: number | null }[];
  /** Fetches whose answer the page has not read yet. */
  inFlight: number;
  /** The page-clock spans advanceClock stepped through: only polls inside them are measured. */
  stepped: { from: number; until: number }[];
}

declare global {
  interface Window {
    __sproutFetches?: FetchLog;
  }
}

/**
 * Installs Playwright's clock on the page and logs each fetch with the page's clock time, so
 * `advanceClock` and `pollGaps` can measure polling. Call before the page's first navigation.
 */
export async function recordFetches(page: Page): Promise<void> {
  await page.clock.install();
  await page.addInitScript(() => {
    const log: FetchLog = { calls: [], inFlight: 0, stepped: [] };
    window.__sproutFetches = log;
    const fetch = window.fetch.bind(window);
    // A macrotask the page clock does not fake: it runs after the page's own continuations of a
    // read (the next page of an infinite query starts in them), so inFlight never drops between.
    const afterTask = (fn: () => void): void => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => fn();
      channel.port2.postMessage(null);
    };
    window.fetch = async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      const call = {
        path: new URL(url, window.location.href).pathname,
        at: Date.now(),
        end: null as number | null,
      };
      log.calls.push(call);
      log.inFlight += 1;
      let finished = false;
      const finish = (): void => {
        if (finished) return;
        finished = true;
        log.inFlight -= 1;
      };
      let response: Response;
      try {
        response = await fetch(input, init);
      } catch (error) {
        call.end = Date.now();
        finish();
        throw error;
      }
      // Finished when the page has read the answer (its time taken in the read's own microtask,
      // before any timer can run), or, for an answer the page never reads, once it has arrived.
      const unread = response.clone();
      for (const method of ['json', 'text', 'arrayBuffer', 'blob'] as const) {
        const read = response[method].bind(response) as () => Promise<unknown>;
        Object.defineProperty(response, method, {
          value: () => {
            const result = read();
            const settle = (): void => {
              call.end = Date.now();
              afterTask(finish);
            };
            result.then(settle, settle);
            return result;
          },
        });
      }
      const fallback = (): void => {
        call.end ??= Date.now();
        afterTask(() => afterTask(() => afterTask(finish)));
      };
      unread.arrayBuffer().then(fallback, fallback);
      return response;
    };
  });
}

/** Waits (in Node, on the wall clock) until the page has read every answer it fetched. */
async function fetchesRead(page: Page): Promise<void> {
  // Polled from Node: waiting inside the page would run on the page's (fake) timers. A loaded
  // machine may take a while to answer.
  const deadline = Date.now() + 30_000;
  while ((await page.evaluate(() => window.__sproutFetches?.inFlight ?? 0)) > 0) {
    if (Date.now() > deadline) throw new Error('A fetch did not finish within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Runs the page clock `totalMs` ahead in `stepMs` steps, letting every fetch finish between steps. */
export async function advanceClock(page: Page, totalMs: number, stepMs: number): Promise<void> {
  // Paused while waiting between steps: a running page clock would fire a due poll while the last
  // one is still in flight on a loaded machine, and the query would skip it. Paused a second
  // ahead: the page clock keeps running while this call makes its way to the page; when that
  // took longer (pausing in the clock's past throws, once the clock is already paused), pause
  // where it is.
  try {
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
  } catch (error) {
    if (!/past/.test(String(error))) throw error;
    await page.clock.pauseAt(await page.evaluate(() => Date.now()));
  }
  await fetchesRead(page);
  const from = await page.evaluate(() => Date.now());
  try {
    for (let ran = 0; ran < totalMs; ran += stepMs) {
      await page.clock.runFor(stepMs);
      await fetchesRead(page);
    }
    await page.evaluate((start) => {
      window.__sproutFetches?.stepped.push({ from: start, until: Date.now() });
    }, from);
  } finally {
    await page.clock.resume();
  }
}

/**
 * The first `count` intervals between polls of `path` (the query string ignored), to the nearest
 * second of the page clock, inside the spans advanceClock stepped through (outside them the page
 * clock follows the wall clock, where a loaded machine fires a timer late). An interval runs from
 * the moment the page read the previous answer, where react-query restarts the refetch interval,
 * to the next fetch: a poll that fell due in the middle of a step is still measured exactly,
 * though the clock ran on while it was in flight. The pages of one refetch (an infinite query
 * fetching page after page, in no page time) count as one.
 */
async function pollGaps(page: Page, path: string, count: number): Promise<number[]> {
  const spans = await page.evaluate((wanted) => {
    const log = window.__sproutFetches;
    return (log?.stepped ?? []).map(({ from, until }) =>
      log!.calls
        .filter((c) => c.path === wanted && c.at >= from && c.at <= until)
        .map((c) => [c.at, c.end] as const),
    );
  }, path);
  return spans
    .flatMap((calls) =>
      calls.slice(1).map(([at], index) => {
        const previousEnd = calls[index]![1];
        return previousEnd === null ? Number.NaN : Math.round((at - previousEnd) / 1000) * 1000;
      }),
    )
    .filter((gap) => gap !== 0)
    .slice(0, count);
}

/**
 * Why the polls of `path` do not show polling every `intervalMs`, or [] when they do: at least
 * `count` gaps, each within `slackMs` (2 s or a fifth of the interval) of it. Gaps are page-clock
 * time from the previous answer (see pollGaps), so a loaded machine does not widen them.
 */
export async function pollingProblems(
  page: Page,
  path: string,
  intervalMs: number,
  count: number,
  slackMs = Math.max(2_000, intervalMs / 5),
): Promise<string[]> {
  const gaps = await pollGaps(page, path, count);
  const problems: string[] = [];
  if (gaps.length < count) problems.push(`${path}: ${gaps.length} gaps between polls, expected ${count}`);
  if (gaps.some((gap) => !(Math.abs(gap - intervalMs) <= slackMs)))
    problems.push(`${path}: gaps ${gaps.join(', ')} are not ${intervalMs} ms (within ${slackMs} ms)`);
  return problems;
}
