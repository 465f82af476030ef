// The monitoring screens (System Health, Proactive Monitoring, Fallback System and the monitoring
// dashboard) in Chromium against the real api-gateway and the real monitor service, on one test
// database and Redis prefix. The monitor checks the fake OpenAI and the fake Twilio through their
// real SDKs; the fake OpenAI fails on demand.
import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { QUEUE_NAMES, type SmsCircuitState, smsCircuitKey } from '@sprout/contracts';
import {
  createLogger,
  findFreePort,
  JobQueues,
  type RunningWorkers,
  startWorkers,
  UnrecoverableError,
} from '@sprout/platform';
import { clearOfUtcMidnight, FakeOpenAI, FakeTwilio } from '@sprout/testing';
import { checkA11y, openPage } from '@sprout/testing/browser';
import type { Request } from 'playwright-core';
import type { DataSource } from 'typeorm';
import { createApp as createMonitor } from '../../services/monitor/src/app';
import { signIn, useBrowserStack } from '../src/fixtures';
import { expectErrorToast, expectToast, toastWithTitle } from '../src/helpers';
import { advanceClock, pollingProblems, recordFetches } from '../src/seed-insight';
import { startWebStack, type WebStack } from '../src/stack';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const FORCE_TIMEOUT_MS = 5_000;

let monitor: Awaited<ReturnType<typeof createMonitor>> | undefined;
let openai: FakeOpenAI;
let twilio: FakeTwilio;
let ds: DataSource;
const workers: RunningWorkers[] = [];

const { stack, browser, page, errors } = useBrowserStack({
  // Read by the api-gateway's monitoring module at start: a forced check without a monitor ends soon.
  env: { MONITOR_FORCE_CHECK_TIMEOUT_MS: String(FORCE_TIMEOUT_MS) },
  setup: async ({ db, services }) => {
    ds = db.dataSource;
    [openai, twilio] = await Promise.all([
      services.add(FakeOpenAI.start()),
      services.add(FakeTwilio.start()),
    ]);
    monitor = await createMonitor(
      {
        ...services.settings,
        port: 0,
        openaiApiKey: openai.apiKey,
        openaiBaseUrl: openai.baseURL,
        twilioAccountSid: twilio.accountSid,
        twilioAuthToken: twilio.authToken,
        twilioApiBaseUrl: twilio.url,
        checkTimeoutMs: 3_000,
      },
      {},
    );
    // A test stops the monitor, another starts workers of its own.
    services.onClose(async () => {
      await monitor?.close();
    });
    services.onClose(async () => {
      for (const worker of workers) await worker.close();
    });
    // A first round of checks and predictions, so the pages have the monitor's state from the start.
    const queues = monitor.app.get(JobQueues);
    await queues.enqueueAndWait('monitor.health', {}, 30 * SECOND);
    await queues.enqueueAndWait('monitor.predict', {}, 30 * SECOND);
  },
});

const card = (service: string) => page.locator(`[data-testid="service-card"][data-service="${service}"]`);

async function openSystemHealth(): Promise<void> {
  await page.goto('/admin/system-health');
  await page.getByRole('heading', { name: 'System Health', level: 1 }).waitFor();
  await page.getByTestId('overall-health').waitFor();
}

/** Clicks Force Health Check and answers the status of its call. */
async function forceHealthCheck(): Promise<number> {
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/monitoring/force-health-check'), {
    timeout: FORCE_TIMEOUT_MS + 30 * SECOND,
  });
  await page.getByRole('button', { name: 'Force Health Check' }).click();
  return (await answered).status();
}

/** What a request carried: its body and content type. */
async function bodyOf(request: Request): Promise<{ body: string | null; contentType: string | undefined }> {
  return { body: request.postData(), contentType: (await request.allHeaders())['content-type'] };
}

/** The card's availability, consecutive failures and last check as shown. */
async function serviceShown(
  service: string,
): Promise<{ status: string; failures: number; lastCheck: string }> {
  const status = await card(service).getByTestId('service-status').innerText();
  const failuresText = await card(service).getByTestId('service-failures').innerText();
  const lastCheck = await card(service).getByTestId('service-last-check').innerText();
  return { status, failures: Number(/Consecutive failures: (\d+)/.exec(failuresText)?.[1]), lastCheck };
}

describe('System Health', () => {
  it('shows the overall health, a card per service, the fallback chain and the thresholds', async () => {
    await openSystemHealth();
    expect(await page.getByTestId('overall-health').innerText()).toContain('All systems healthy');
    expect(await page.getByTestId('service-card').count()).toBe(4);
    for (const service of ['database', 'redis', 'ai_provider', 'sms_provider']) {
      const shown = await serviceShown(service);
      expect(shown.status).toBe('Available');
      expect(shown.failures).toBe(0);
      expect(shown.lastCheck).toMatch(/^Last check: (Just now|\d+ seconds? ago)$/);
    }
    expect(await card('ai_provider').innerText()).toContain('AI Provider');
    expect(await card('ai_provider').innerText()).toContain('openai (');
    expect(await page.getByTestId('fallback-chain').innerText()).toMatch(
      /Normal flow\s+Limited AI\s+Template responses\s+Minimal response/,
    );
    const thresholds = await page.getByTestId('thresholds').innerText();
    expect(thresholds).toContain('AI Provider: unavailable after 3 consecutive failures');
    expect(thresholds).toContain('Database: unavailable after 5 consecutive failures');
    expect(thresholds).toContain('SMS Provider: unavailable after 3 consecutive failures');
    expect(await page.getByTestId('queue-row').count()).toBe(QUEUE_NAMES.length);
    expect(await card('sms_provider').getByTestId('sms-sending').innerText()).toBe('Sending: normal');
    expect(await checkA11y(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("warns on the SMS Provider card while sms-gateway's Twilio send circuit is open", async () => {
    const key = smsCircuitKey(stack.redis.prefix);
    const openedAt = Date.now() - MINUTE;
    const open: SmsCircuitState = {
      state: 'open',
      consecutiveFailures: 5,
      openedAt,
      retryAt: openedAt + 2 * MINUTE,
      lastError: 'Service Unavailable',
      updatedAt: openedAt,
    };
    try {
      await stack.redis.connection.set(key, JSON.stringify(open));
      await openSystemHealth();
      const warning = card('sms_provider').getByTestId('sms-sending');
      expect(await warning.getAttribute('role')).toBe('alert');
      expect(await warning.innerText()).toMatch(
        /^Sending paused: Twilio failing \(5 in a row\) since \d{1,2}:\d{2} [AP]M; next try \d{1,2}:\d{2} [AP]M; replies are held and will be sent when Twilio recovers\s+Last error: Service Unavailable$/,
      );
      expect(await checkA11y(page)).toEqual([]);
    } finally {
      await stack.redis.connection.del(key);
    }
    await openSystemHealth();
    expect(await card('sms_provider').getByTestId('sms-sending').innerText()).toBe('Sending: normal');
    expect(errors).toEqual([]);
  });

  it("says 'Health Check Complete' after a forced check, and turns the AI provider Unavailable at 3 failures", async () => {
    await openSystemHealth();
    // The shared request behaviour: a call without a body sends neither a body nor a JSON type.
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/monitoring/force-health-check'));
    expect(await forceHealthCheck()).toBe(200);
    expect(await bodyOf(await sent)).toEqual({ body: null, contentType: undefined });
    await expectToast(page, 'Health Check Complete', 'Service health status has been updated');

    // The model endpoint fails from now on: each round counts one more failure.
    openai.failNext({ status: 500, times: 1000 });
    let shown = await serviceShown('ai_provider');
    for (let round = 0; round < 6 && shown.failures < 3; round += 1) {
      expect(await forceHealthCheck()).toBe(200);
      await page.waitForFunction((before) => {
        const text = document.querySelector(
          '[data-service="ai_provider"] [data-testid="service-failures"]',
        )?.textContent;
        return text !== undefined && text !== null && !text.startsWith(`Consecutive failures: ${before} `);
      }, shown.failures);
      shown = await serviceShown('ai_provider');
      // Below the threshold of 3 it still counts as available.
      expect(shown.status).toBe(shown.failures < 3 ? 'Available' : 'Unavailable');
    }
    expect(shown.failures).toBeGreaterThanOrEqual(3);
    expect(shown.status).toBe('Unavailable');
    expect(await page.getByTestId('overall-health').getAttribute('data-health')).toBe('degraded');
    expect(await page.getByTestId('overall-health').innerText()).toContain('System degraded');
    expect(await card('ai_provider').getByTestId('service-error').innerText()).not.toBe('');
    // The other services are untouched.
    expect((await serviceShown('database')).status).toBe('Available');

    // The endpoint answers again: the next check makes it available.
    openai.reset();
    expect(await forceHealthCheck()).toBe(200);
    await page.waitForFunction(
      () =>
        document.querySelector('[data-service="ai_provider"] [data-testid="service-status"]')?.textContent ===
        'Available',
    );
    expect((await serviceShown('ai_provider')).failures).toBe(0);
  });

  it('retries a failed job from the Queues panel', async () => {
    let failNext = true;
    workers.push(
      await startWorkers({
        connection: stack.redis.connection,
        prefix: stack.redis.prefix,
        owns: ['survey.lifecycle'],
        logger: createLogger({ name: 'e2e-survey-stand-in', level: 'silent' }),
        handlers: {
          'survey.lifecycle': async () => {
            if (failNext) {
              failNext = false;
              throw new UnrecoverableError('campaign table locked');
            }
            return { campaigns: 0, transitions: [], newlyTargeted: 0 };
          },
        },
      }),
    );
    const queues = monitor!.app.get(JobQueues);
    const queue = queues.queue('survey.lifecycle');
    const { jobId: id } = await queues.enqueue('survey.lifecycle', {});
    for (let i = 0; i < 100 && (await queue.getJobState(id)) !== 'failed'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    // The page clock: the Queues panel's next poll (every 10 s) comes when the test runs it on.
    await recordFetches(page);
    await openSystemHealth();
    const row = page.locator('[data-testid="queue-row"][data-queue="survey.lifecycle"]');
    await page.getByTestId('failed-job').waitFor();
    expect(await row.locator('[data-column="failed"]').innerText()).toBe('1');
    expect(await page.getByTestId('failed-job-reason').innerText()).toBe('campaign table locked');
    expect(await page.getByTestId('failed-job').innerText()).toContain('Attempts 1 of 3');

    await page.getByRole('button', { name: `Retry job ${id} of survey.lifecycle` }).click();
    expect((await toastWithTitle(page, 'Job Retried')).destructive).toBe(false);
    // The worker runs the job again; the poll after that shows it completed.
    for (let i = 0; i < 600 && (await queue.getJobState(id)) !== 'completed'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await advanceClock(page, 10_000, 5_000);
    await page.getByTestId('failed-job').waitFor({ state: 'detached' });
    await page.waitForFunction(
      () =>
        document.querySelector('[data-queue="survey.lifecycle"] [data-column="completed"]')?.textContent ===
        '1',
    );
    expect(await row.locator('[data-column="failed"]').innerText()).toBe('0');
    expect(await queue.getJobState(id)).toBe('completed');
    expect(errors).toEqual([]);
  });
});

describe('before any conversation', () => {
  it("Proactive Monitoring: 'All Systems Normal', trends, status and memory in MB", async () => {
    await page.goto('/admin/proactive-monitoring');
    await page.getByRole('heading', { name: 'Proactive Monitoring', level: 1 }).waitFor();
    await page.getByTestId('all-systems-normal').waitFor();
    expect(await page.getByTestId('all-systems-normal').innerText()).toContain('All Systems Normal');
    await page.getByTestId('system-status').waitFor();
    expect(await page.getByTestId('system-status').textContent()).toMatch(/^(normal|warning)$/);
    for (const figure of ['heap-used', 'heap-total', 'rss', 'external']) {
      expect(await page.getByTestId(`${figure}-value`).innerText()).toMatch(/^\d+\.\d MB$/);
    }
    expect(await page.getByTestId('response-time-trend-bar').count()).toBe(12);
    expect(await page.getByTestId('error-rate-trend-bar').count()).toBe(12);
    expect(await checkA11y(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("the monitoring dashboard: 'No messages yet', zero usage, linked from the Overview", async () => {
    await page.goto('/admin/dashboard');
    await page.getByRole('link', { name: 'Monitoring Dashboard' }).click();
    await page.getByRole('heading', { name: 'Monitoring Dashboard', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/monitoring');
    await page.getByTestId('api-calls-value').waitFor();
    expect(await page.getByTestId('api-calls-value').innerText()).toBe('0 / 1,000');
    expect(await page.getByTestId('api-cost-value').innerText()).toBe('$0.0000 / $10.00');
    expect(await page.getByTestId('api-no-alerts').innerText()).toBe('No alerts today.');
    await page.getByRole('tab', { name: 'Recent Activity' }).click();
    expect(await page.getByTestId('no-messages').innerText()).toBe('No messages yet');
    await page.getByRole('tab', { name: 'Conversation Quality' }).click();
    expect(await page.getByTestId('health-band').innerText()).toBe('Needs Attention');
    expect(await page.getByTestId('q-active-days-value').innerText()).toBe('0/7');
    expect(errors).toEqual([]);
  });

  it('Fallback System: the chain with no replies yet', async () => {
    await page.goto('/admin/fallback-monitoring');
    await page.getByRole('heading', { name: 'Fallback System', level: 1 }).waitFor();
    await page.getByTestId('fallback-tier').first().waitFor();
    expect(await page.getByTestId('fallback-tier').allInnerTexts()).toEqual([
      expect.stringContaining('1. Normal flow'),
      expect.stringContaining('2. Limited AI'),
      expect.stringContaining('3. Template responses'),
      expect.stringContaining('4. Minimal response'),
    ]);
    expect(await page.getByTestId('fallback-current-tier').innerText()).toBe('No reply yet');
    expect(await page.getByTestId('no-fallbacks').innerText()).toContain('No fallbacks');
    expect(errors).toEqual([]);
  });
});

describe('with conversations', () => {
  let now: Date;
  /** Seeded rows on today's UTC date (the test may run just after midnight). */
  const today = { messages: 0, calls: 0, failedCalls: 0, cost: 0, days: new Set<string>() };

  beforeAll(async () => {
    now = await clearOfUtcMidnight(10 * MINUTE);
    const todayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * MINUTE);
    const isToday = (date: Date) => date.getTime() >= todayStart;
    const [portlandUser] = await ds.query<Array<{ id: string }>>(
      `INSERT INTO users (phone_number, zip_code, created_at, last_message_at)
       VALUES ('+15035550111', '97201', $1, $2) RETURNING id`,
      [at(60 * 24 * 20), at(1)],
    );
    const [seattleUser] = await ds.query<Array<{ id: string }>>(
      `INSERT INTO users (phone_number, created_at, last_message_at) VALUES ('+12065550112', $1, $2) RETURNING id`,
      [at(60), at(2)],
    );
    const conversation = async (userId: string) =>
      (
        await ds.query<Array<{ id: string }>>(
          'INSERT INTO conversations (user_id) VALUES ($1) RETURNING id',
          [userId],
        )
      )[0]!.id;
    const portland = { user: portlandUser!.id, conversation: await conversation(portlandUser!.id) };
    const seattle = { user: seattleUser!.id, conversation: await conversation(seattleUser!.id) };
    const message = async (
      who: { user: string; conversation: string },
      minutesAgo: number,
      fields: { direction: 'inbound' | 'outbound'; content: string; status: string; responseMs?: number },
    ) => {
      const when = at(minutesAgo);
      if (isToday(when)) today.messages += 1;
      today.days.add(when.toISOString().slice(0, 10));
      await ds.query(
        `INSERT INTO messages (user_id, conversation_id, direction, content, status, kind, response_time_ms, created_at)
         VALUES ($1, $2, $3, $4, $5, 'reply', $6, $7)`,
        [
          who.user,
          who.conversation,
          fields.direction,
          fields.content,
          fields.status,
          fields.responseMs ?? null,
          when,
        ],
      );
    };
    // Replies were quick half an hour ago; in the last 10 minutes they are slow and failing.
    for (const minutesAgo of [50, 45, 40, 35, 30]) {
      await message(portland, minutesAgo, {
        direction: 'inbound',
        content: 'Earlier question',
        status: 'received',
      });
      await message(portland, minutesAgo, {
        direction: 'outbound',
        content: 'Mulch your beds with 2 inches of compost to keep the soil moist through the summer heat.',
        status: 'delivered',
        responseMs: 1500,
      });
    }
    for (const minutesAgo of [9, 8, 7, 6, 5, 4]) {
      await message(portland, minutesAgo, {
        direction: 'outbound',
        content: 'Sorry',
        status: 'failed',
        responseMs: 12_000,
      });
    }
    await message(seattle, 2, {
      direction: 'inbound',
      content: 'When do I plant garlic in Seattle?',
      status: 'received',
    });
    await message(portland, 1, {
      direction: 'outbound',
      content: 'Plant tomatoes after the last frost, around mid-May in Portland.',
      status: 'delivered',
      responseMs: 12_000,
    });
    // A New York ZIP and a recorded Maryland region: the fixed Pacific Northwest table is not for
    // them. Survey links (not replies, no sender): the other figures stay as they are.
    for (const [phone, zip, region, minutesAgo] of [
      ['+12125550113', '10001', null, 20],
      ['+14105550114', null, 'Mid-Atlantic', 21],
    ] as const) {
      const [user] = await ds.query<Array<{ id: string }>>(
        `INSERT INTO users (phone_number, zip_code, region, created_at) VALUES ($1, $2, $3, $4) RETURNING id`,
        [phone, zip, region, at(60 * 24)],
      );
      const when = at(minutesAgo);
      if (isToday(when)) today.messages += 1;
      await ds.query(
        `INSERT INTO messages (user_id, conversation_id, direction, content, status, kind, created_at)
         VALUES ($1, $2, 'outbound', 'Tell us how Sprout is doing', 'delivered', 'survey', $3)`,
        [user!.id, await conversation(user!.id), when],
      );
    }
    // Model calls: a timeout moved one reply to the fallback model.
    const calls = [
      { when: at(3), model: 'gpt-4o-mini', tier: 'primary', error: 'timeout: Request timed out', cost: 0 },
      {
        when: new Date(at(3).getTime() + SECOND),
        model: 'gpt-4o',
        tier: 'fallback',
        error: null,
        cost: 0.012,
      },
      { when: at(1), model: 'gpt-4o-mini', tier: 'primary', error: null, cost: 0.0021 },
    ];
    for (const call of calls) {
      if (isToday(call.when)) {
        today.calls += 1;
        today.cost += call.cost;
        if (call.error !== null) today.failedCalls += 1;
      }
      await ds.query(
        `INSERT INTO llm_calls (conversation_id, purpose, model, tier, error, cost, total_tokens, latency_ms, created_at)
         VALUES ($1, 'reply', $2, $3, $4, $5, 600, 1500, $6)`,
        [portland.conversation, call.model, call.tier, call.error, call.cost, call.when],
      );
    }
  });

  it('the monitoring dashboard shows the figures, the quality score and the recent messages', async () => {
    await page.goto('/admin/monitoring');
    await page.waitForFunction(
      (expected) =>
        document.querySelector('[data-testid="monitoring-messages-today-value"]')?.textContent === expected,
      String(today.messages),
    );
    expect(await page.getByTestId('monitoring-active-users-value').innerText()).toBe('2');
    expect(await page.getByTestId('monitoring-active-users-detail').innerText()).toBe('+12% from last week');
    expect(await page.getByTestId('monitoring-messages-today-detail').innerText()).toBe('+8% from yesterday');
    expect(await page.getByTestId('monitoring-api-cost-value').innerText()).toBe(`$${today.cost.toFixed(4)}`);
    expect(await page.getByTestId('monitoring-avg-response-value').innerText()).toMatch(/^\d+\.\ds$/);
    expect(await page.getByTestId('api-calls-value').innerText()).toBe(`${today.calls} / 1,000`);
    expect(await page.getByTestId('api-calls-badge').innerText()).toBe('0%');
    expect(await page.getByTestId('api-calls-badge').getAttribute('data-variant')).toBe('default');
    expect(await page.getByTestId('api-errors-value').innerText()).toBe(String(today.failedCalls));
    // Beside the display-only limits, the display-only cost per token.
    expect(await page.getByTestId('api-cost-per-token-value').innerText()).toBe('$0.000002');
    // Each average says what it measures: reply time on the card, model-call time in the tab.
    expect(await page.getByTestId('monitoring-avg-response-measures').innerText()).toBe(
      "Text received to Sprout's reply, real users' replies today (UTC)",
    );
    expect(await page.getByTestId('api-average-response-measures').innerText()).toBe(
      "AI provider call duration, today's model calls (UTC), test users included",
    );
    // The response-time chart: a seconds axis from 0 with its unit, the calls oldest to newest.
    const chart = page.getByTestId('api-response-chart');
    expect(await chart.getByTestId('api-response-y-label').innerText()).toBe('Response time (s)');
    expect(await chart.getByTestId('api-response-y-axis').locator('span').allInnerTexts()).toEqual([
      '0s',
      '0.5s',
      '1s',
      '1.5s',
    ]);
    expect(await chart.getByTestId('api-response-x-axis').innerText()).toMatch(/^Oldest\s+.*\s+Newest$/);
    expect(await chart.getByTestId('api-response-bar').count()).toBe(today.calls);

    await page.getByRole('tab', { name: 'Conversation Quality' }).click();
    await page.getByTestId('health-score').waitFor();
    expect(await page.getByTestId('q-response-time-measures').innerText()).toBe(
      "Text received to Sprout's reply, real users' replies over the last 7 days",
    );
    expect(await page.getByTestId('q-total-users-value').innerText()).toBe('2');
    expect(await page.getByTestId('q-active-days-value').innerText()).toBe(`${today.days.size}/7`);
    expect(['Excellent', 'Good', 'Needs Attention']).toContain(
      await page.getByTestId('health-band').innerText(),
    );

    await page.getByRole('tab', { name: 'Recent Activity' }).click();
    await page.getByTestId('recent-message').first().waitFor();
    const first = page.getByTestId('recent-message').first();
    expect(await first.innerText()).toContain('(503) 555-0111');
    // The user's region from their ZIP (97201); the fixed table only for those without one.
    expect(await first.getByTestId('message-location').innerText()).toBe('Pacific Northwest');
    expect(await first.getByTestId('message-time').innerText()).toMatch(/^\d+ (minute|minutes|seconds) ago$/);
    expect(await first.getByTestId('message-status').textContent()).toBe('delivered');
    const second = page.getByTestId('recent-message').nth(1);
    expect(await second.getByTestId('message-location').innerText()).toBe('Seattle, WA');
    expect(await second.innerText()).toContain('(206) 555-0112');
    const locationOf = (phone: string) =>
      page
        .getByTestId('recent-message')
        .filter({ hasText: phone })
        .getByTestId('message-location')
        .innerText();
    expect(await locationOf('(212) 555-0113')).toBe('Northeast');
    expect(await locationOf('(410) 555-0114')).toBe('Mid-Atlantic');
    expect(await page.locator('[data-testid="message-status"][data-delivery="failed"]').count()).toBe(6);
    expect(await page.getByRole('button', { name: 'View All' }).isVisible()).toBe(true);
    expect(await checkA11y(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('Force Check predicts from the new trends and the page reloads', async () => {
    await page.goto('/admin/proactive-monitoring');
    await page.getByRole('heading', { name: 'Proactive Monitoring', level: 1 }).waitFor();
    const reloaded = page.waitForEvent('load');
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/monitoring/proactive/force-check'));
    await page.getByRole('button', { name: 'Force Check' }).click();
    expect(await bodyOf(await sent)).toEqual({ body: null, contentType: undefined });
    await reloaded;
    await page.getByTestId('predictions').waitFor();
    const types = await page
      .getByTestId('prediction')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-type')));
    expect(types).toEqual(expect.arrayContaining(['error_rate_increase', 'response_time_degradation']));
    expect(await page.getByTestId('prediction').first().innerText()).toContain('high severity');
    expect(await page.getByTestId('prediction').first().innerText()).toContain('Error rate rising');
    expect(await page.getByTestId('system-status').textContent()).toBe('critical');
    // Replies of 12 s fill their bar (capped at 100 %); those of 1.5 s fill 15 %.
    const bars = await page
      .getByTestId('response-time-trend-bar')
      .evaluateAll((items) => items.map((item) => Number(item.getAttribute('aria-valuenow'))));
    expect(Math.max(...bars)).toBe(100);
    expect(bars).toContain(15);
    expect(errors).toEqual([]);
  });

  it('Fallback System shows the replies per tier, the current tier and why a reply fell back', async () => {
    await page.goto('/admin/fallback-monitoring');
    await page.getByTestId('recent-fallbacks').waitFor();
    expect(await page.getByTestId('fallback-current-tier').innerText()).toBe('Normal flow');
    expect(
      await page
        .locator('[data-testid="fallback-tier"][data-tier="fallback"] [data-testid="tier-24h"]')
        .innerText(),
    ).toBe('1');
    expect(await page.getByTestId('fallback-reason').innerText()).toBe('timeout: Request timed out');
    expect(await page.getByTestId('fallback-rate').innerText()).toContain('50%');
    expect(await page.getByTestId('fallback-thresholds').innerText()).toContain('AI Provider');
    expect(await checkA11y(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('polling', () => {
  it('polls each panel at its own interval', async () => {
    await recordFetches(page);
    await page.goto('/admin/monitoring');
    await page.getByTestId('api-calls-value').waitFor();
    // A tab's figures poll while the tab is open.
    await advanceClock(page, 45 * SECOND, 5 * SECOND);
    expect(await pollingProblems(page, '/api/monitoring/api-usage', 10_000, 3)).toEqual([]);
    await page.getByRole('tab', { name: 'Recent Activity' }).click();
    await page.getByTestId('recent-message').first().waitFor();
    await advanceClock(page, 65 * SECOND, 5 * SECOND);
    expect(await pollingProblems(page, '/api/admin/messages', 15_000, 2)).toEqual([]);
    expect(await pollingProblems(page, '/api/admin/metrics', 30_000, 1)).toEqual([]);

    await page.goto('/admin/proactive-monitoring');
    await page.getByTestId('response-time-trend').waitFor();
    await advanceClock(page, 130 * SECOND, 5 * SECOND);
    expect(await pollingProblems(page, '/api/monitoring/proactive/predictions', 30_000, 2)).toEqual([]);
    expect(await pollingProblems(page, '/api/monitoring/proactive/system-health', 30_000, 2)).toEqual([]);
    expect(await pollingProblems(page, '/api/monitoring/proactive/trends', 60_000, 1)).toEqual([]);

    await page.goto('/admin/system-health');
    await page.getByTestId('queues').waitFor();
    await advanceClock(page, 75 * SECOND, 5 * SECOND);
    expect(await pollingProblems(page, '/api/monitoring/service-health', 30_000, 1)).toEqual([]);
    expect(await pollingProblems(page, '/api/monitoring/queues', 10_000, 3)).toEqual([]);
  });
});

describe('when the monitor is stopped', () => {
  it("says 'Health Check Failed' when the forced check gets no answer", async () => {
    await monitor?.close();
    monitor = undefined;
    await openSystemHealth();
    expect(await forceHealthCheck()).toBe(504);
    await expectErrorToast(page, 'Health Check Failed', 'Unable to perform health check');
    expect(errors.filter((e) => !e.includes('504'))).toEqual([]);
  });
});

/** A redis-server of the test's own on a loopback port (nothing kept on disk), up once it answers PING. */
async function startRedisServer(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', ''], {
    stdio: 'ignore',
  });
  const pong = () =>
    new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
      socket.once('data', (data) => {
        socket.destroy();
        resolve(data.toString().startsWith('+PONG'));
      });
      socket.once('error', () => resolve(false));
    });
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (await pong()) return child;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server on port ${port} did not start`);
}

async function stopRedisServer(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

describe('when Redis is down', () => {
  // A console of its own on a redis-server of its own, so stopping Redis touches nothing else.
  let port: number;
  let server: ChildProcess | undefined;
  let own: WebStack | undefined;

  beforeAll(async () => {
    port = await findFreePort();
    server = await startRedisServer(port);
    own = await startWebStack({ apiGateway: { redisUrl: `redis://127.0.0.1:${port}` } });
  });

  afterAll(async () => {
    // Redis back first, so the api-gateway closes its queues and connections normally.
    if (server === undefined) server = await startRedisServer(port).catch(() => undefined);
    await own?.close();
    await stopRedisServer(server);
  });

  it('shows Redis Unavailable as the api-gateway saw it, the database checked, the rest not checked', async () => {
    const ownErrors: string[] = [];
    const opened = await openPage(browser, { baseURL: own?.baseUrl ?? '', errors: ownErrors });
    try {
      await signIn(opened.context);
      await stopRedisServer(server);
      server = undefined;

      const shown = opened.page;
      await shown.goto('/admin/system-health');
      await shown.getByRole('heading', { name: 'System Health', level: 1 }).waitFor();
      await shown.getByTestId('monitor-state-error').waitFor();
      const cardOf = (service: string) =>
        shown.locator(`[data-testid="service-card"][data-service="${service}"]`);
      expect(await shown.getByTestId('overall-health').innerText()).toContain('System degraded');
      expect(await cardOf('redis').getByTestId('service-status').innerText()).toBe('Unavailable');
      expect(await cardOf('redis').getByTestId('service-error').innerText()).toContain(
        'The api-gateway could not read from Redis',
      );
      expect(await cardOf('database').getByTestId('service-status').innerText()).toBe('Available');
      for (const service of ['ai_provider', 'sms_provider']) {
        expect(await cardOf(service).getByTestId('service-status').innerText()).toBe('Not checked');
      }
    } finally {
      await opened.context.close();
    }
  });
});
