// The Messages and Conversations screen (/admin/messages) in Chromium against the real api-gateway
// and seeded data; sms-gateway runs too (against the fake Twilio) to answer delivery checks.
import { readFileSync } from 'node:fs';
import { checkA11y } from '@sprout/testing/browser';
import { useBrowserStack } from '../src/fixtures';
import { expectErrorToast, expectShownText, expectToast } from '../src/helpers';
import {
  advanceClock,
  DELIVERIES_KEY_OUTCOMES,
  DELIVERIES_TOPICS,
  DELIVERY_TOOLTIPS,
  INSIGHT_STATS,
  type InsightSeed,
  phoneOf,
  pollingProblems,
  recordFetches,
  seedInsight,
  SEEDING_TIMEOUT_MS,
  sendThroughFakeTwilio,
} from '../src/seed-insight';

// sms-gateway answers the console's delivery checks.
const { stack, page, context, errors } = useBrowserStack({ smsGateway: true });

const rows = () => page.getByTestId('conversation-row');
const rowOf = (conversationId: string) => page.locator(`[data-conversation-id="${conversationId}"]`);
const pane = () => page.getByTestId('conversation-pane');
const search = () => page.getByRole('searchbox', { name: 'Search conversations' });

async function openMessages(): Promise<void> {
  await page.goto('/admin/messages');
  await page.getByRole('heading', { name: 'Messages and Conversations', level: 1 }).waitFor();
}

async function cards() {
  const value = (name: string) => page.getByTestId(`stat-${name}-value`).innerText();
  return {
    totalMessages: await value('total-messages'),
    messagesToday: await value('messages-today'),
    change: await page.getByTestId('stat-messages-today-detail').innerText(),
    responseRate: await value('response-rate'),
    failed: await value('failed-messages'),
  };
}

describe('before any conversation', () => {
  it("says 'No conversations found' and 'No conversation selected'", async () => {
    await openMessages();
    await expectShownText(
      page,
      'conversations-empty',
      'No conversations found',
      'Try adjusting your search terms.',
    );
    expect(await page.getByTestId('no-selection').innerText()).toContain('No conversation selected');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="stat-total-messages-value"]')?.textContent === '0',
    );
    expect(await page.getByTestId('stat-messages-today-detail').innerText()).toBe('No change from yesterday');
    expect(errors).toEqual([]);
  });
});

describe('with seeded conversations', () => {
  let seed: InsightSeed;

  beforeAll(async () => {
    seed = await seedInsight(stack.db.dataSource);
  }, SEEDING_TIMEOUT_MS);

  it('shows the four stat cards', async () => {
    await openMessages();
    await page.waitForFunction(
      (total) => document.querySelector('[data-testid="stat-total-messages-value"]')?.textContent === total,
      INSIGHT_STATS.messages.real.totalMessages,
    );
    expect(await cards()).toEqual(INSIGHT_STATS.messages.real);
    const titles = await page
      .getByRole('region', { name: 'Message stats' })
      .getByRole('heading')
      .allInnerTexts();
    expect(titles).toEqual(['Total Messages', 'Messages Today', 'Response Rate', 'Failed Messages']);
    expect(await page.getByTestId('stat-failed-messages-detail').innerText()).toBe('Requires attention');
    expect(await page.getByTestId('stat-response-rate-detail').innerText()).toBe('Last 24 hours');
  });

  it('shows a row per conversation: last 4 digits, phone link, badges, topics, count, time and region', async () => {
    await openMessages();
    await rows().first().waitFor();
    expect(await rows().first().getAttribute('data-conversation-id')).toBe(seed.conversationIds.deliveries);
    const row = rowOf(seed.conversationIds.deliveries);
    expect(await row.getByTestId('conversation-last4').innerText()).toBe('0201');
    const link = row.getByTestId('conversation-phone');
    expect(await link.innerText()).toBe('(503) 555-0201');
    expect(await link.getAttribute('href')).toBe(`/users?search=${encodeURIComponent(phoneOf('pnw'))}`);
    expect(await row.getByTestId('conversation-sentiment').innerText()).toBe('frustrated');
    expect(await row.getByTestId('conversation-inactive').innerText()).toBe('Inactive');
    expect(await row.getByTestId('conversation-count').innerText()).toBe('10 messages');
    expect(await row.getByTestId('conversation-region').innerText()).toBe('Pacific Northwest');
    expect(await row.getByTestId('conversation-time').innerText()).toMatch(
      /^(Just now|\d+ (second|minute)s? ago)$/,
    );

    const active = rowOf(seed.conversationIds.succulents);
    expect(await active.getByTestId('conversation-inactive').count()).toBe(0);
    expect(await active.getByTestId('conversation-sentiment').innerText()).toBe('positive');
    expect(await checkA11y(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("shows up to 3 topics with '+N more', and all of them until 'Show less'", async () => {
    await openMessages();
    const row = rowOf(seed.conversationIds.deliveries);
    await row.waitFor();
    const topics = row.getByTestId('topic');
    expect(await topics.allInnerTexts()).toEqual(DELIVERIES_TOPICS.slice(0, 3));
    await row.getByRole('button', { name: '+2 more' }).click();
    expect(await topics.allInnerTexts()).toEqual([...DELIVERIES_TOPICS]);
    expect(await row.getByRole('button', { name: '+2 more' }).count()).toBe(0);
    await row.getByRole('button', { name: 'Show less' }).click();
    expect(await topics.allInnerTexts()).toEqual(DELIVERIES_TOPICS.slice(0, 3));
    expect(await row.getByRole('button', { name: 'Show less' }).count()).toBe(0);
    // A row with three topics or fewer has no toggle.
    const single = rowOf(seed.conversationIds.succulents);
    expect(await single.getByRole('button', { name: /more|Show less/ }).count()).toBe(0);
    // Toggling topics does not open the conversation.
    expect(await page.getByTestId('no-selection').count()).toBe(1);
  });

  it('pages through 20 conversations at a time', async () => {
    await openMessages();
    await rows().first().waitFor();
    expect(await rows().count()).toBe(20);
    expect(await page.getByTestId('page-indicator').innerText()).toBe('Page 1 of 2');
    expect(await page.getByTestId('conversation-total').innerText()).toContain(
      `${seed.realConversations} conversations`,
    );
    const previous = page.getByRole('button', { name: 'Previous' });
    const next = page.getByRole('button', { name: 'Next' });
    expect(await previous.isDisabled()).toBe(true);

    await next.click();
    await page.getByTestId('page-indicator').filter({ hasText: 'Page 2 of 2' }).waitFor();
    await page.waitForFunction(
      (count) => document.querySelectorAll('[data-testid="conversation-row"]').length === count,
      seed.realConversations - 20,
    );
    expect(await next.isDisabled()).toBe(true);

    await previous.click();
    await page.getByTestId('page-indicator').filter({ hasText: 'Page 1 of 2' }).waitFor();
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="conversation-row"]').length === 20,
    );
  });

  it('searches conversations, hides the total on a single page, and says when nothing matches', async () => {
    await openMessages();
    await rows().first().waitFor();
    expect(await search().getAttribute('placeholder')).toBe('Search conversations...');
    await search().fill('garlic');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="conversation-row"]').length === 1,
    );
    expect(await rows().first().getAttribute('data-conversation-id')).toBe(seed.conversationIds.garlic);
    expect(await page.getByTestId('page-indicator').innerText()).toBe('Page 1 of 1');
    expect(await page.getByTestId('conversation-total').count()).toBe(0);

    await search().fill('5550202');
    // One row was already showing (garlic): wait for the new answer's row, then count.
    await page
      .locator(`[data-testid="conversation-row"][data-conversation-id="${seed.conversationIds.succulents}"]`)
      .waitFor();
    expect(await rows().count()).toBe(1);

    await search().fill('zucchini blossom');
    await expectShownText(
      page,
      'conversations-empty',
      'No conversations found',
      'Try adjusting your search terms.',
    );
  });

  it('shows the selected conversation with delivery icons and their tooltips', async () => {
    await openMessages();
    expect(await page.getByTestId('no-selection').innerText()).toContain('No conversation selected');
    await rowOf(seed.conversationIds.deliveries).getByTestId('conversation-last4').click();
    const messages = pane().getByTestId('message');
    await messages.first().waitFor();
    expect(await messages.count()).toBe(10);
    expect(await pane().locator('[data-direction="inbound"] [data-testid="delivery-status"]').count()).toBe(
      0,
    );

    const icons = pane().getByTestId('delivery-status');
    expect(await icons.count()).toBe(DELIVERY_TOOLTIPS.length);
    expect(await icons.evaluateAll((els) => els.map((el) => el.getAttribute('data-delivery')))).toEqual([
      'delivered',
      'failed',
      'failed',
      'pending',
      'other',
    ]);
    for (const [index, expected] of DELIVERY_TOOLTIPS.entries()) {
      await icons.nth(index).hover();
      const tooltip = page.getByRole('tooltip');
      await tooltip.filter({ hasText: expected }).waitFor();
      expect(await tooltip.innerText()).toBe(expected);
      // In steps: Radix closes a tooltip on a pointer move after the pointer has left the trigger.
      await page.mouse.move(0, 0, { steps: 5 });
      await tooltip.waitFor({ state: 'detached' });
    }
    expect(errors).toEqual([]);
  });

  it('shows every conversation detail in the collapsible block', async () => {
    await openMessages();
    await rowOf(seed.conversationIds.deliveries).getByTestId('conversation-last4').click();
    const details = page.getByTestId('conversation-details');
    await details.waitFor();
    expect(await details.getByTestId('detail-row').count()).toBe(0);
    await details.getByRole('button', { name: 'Conversation Details' }).click();
    const labels = await details.locator('dt').allInnerTexts();
    expect(labels).toEqual([
      'Conversation ID',
      'User ID',
      'Message Count',
      'User Status',
      'Start Time',
      'Region',
      'Sentiment',
      'Last Message',
      'Topics',
      'Experience Level',
      'Model Used',
      'Summary',
      'Key Outcomes',
      'Next Steps',
    ]);
    const values = await details.locator('dd').allInnerTexts();
    expect(values[0]).toBe(seed.conversationIds.deliveries);
    expect(values[1]).toBe(seed.userIds.pnw);
    expect(values.slice(2, 4)).toEqual(['10', 'Inactive']);
    expect(values.slice(5, 8)).toEqual([
      'Pacific Northwest',
      'frustrated',
      'Happy growing! Text me any time.',
    ]);
    expect(values.slice(8, 12)).toEqual([
      DELIVERIES_TOPICS.join(', '),
      'beginner',
      'gpt-4o-mini',
      'Tomato leaves curling after a cold night on the balcony',
    ]);
    const items = (label: string) => details.locator(`dt:text-is("${label}") + dd li`).allInnerTexts();
    expect(await items('Key Outcomes')).toEqual(DELIVERIES_KEY_OUTCOMES);
    expect(await items('Next Steps')).toEqual([
      'Check the undersides of leaves for aphids',
      'Mulch the beds',
    ]);
    // The block closes again.
    await details.getByRole('button', { name: 'Conversation Details' }).click();
    await details.getByTestId('detail-row').first().waitFor({ state: 'detached' });
    expect(await checkA11y(page)).toEqual([]);
  });

  it("offers 'Check Delivery Status' only for inactive users; a check updates the messages", async () => {
    // The pending reply was sent through Twilio, which has delivered it since.
    const sid = await sendThroughFakeTwilio(stack.sms.twilio, phoneOf('pnw'), 'Check under the leaves.');
    await stack.db.dataSource.query(
      `UPDATE messages SET provider_sid = $1 WHERE conversation_id = $2 AND status = 'pending'`,
      [sid, seed.conversationIds.deliveries],
    );

    await openMessages();
    await rowOf(seed.conversationIds.succulents).getByTestId('conversation-last4').click();
    await pane().getByRole('heading', { name: '(503) 555-0202' }).waitFor();
    expect(await page.getByRole('button', { name: 'Check Delivery Status' }).count()).toBe(0);

    await rowOf(seed.conversationIds.deliveries).getByTestId('conversation-last4').click();
    await pane().getByRole('heading', { name: '(503) 555-0201' }).waitFor();
    const icons = pane().getByTestId('delivery-status');
    await icons.first().waitFor();
    const states = () => icons.evaluateAll((els) => els.map((el) => el.getAttribute('data-delivery')));
    expect(await states()).toEqual(['delivered', 'failed', 'failed', 'pending', 'other']);

    const request = page.waitForRequest(
      (r) =>
        r.method() === 'POST' &&
        r.url().endsWith(`/api/admin/conversations/${seed.conversationIds.deliveries}/check-delivery`),
    );
    await page.getByRole('button', { name: 'Check Delivery Status' }).click();
    const sent = await request;
    expect(sent.headers()['content-type']).toBe('application/json');
    expect(sent.postDataJSON()).toEqual({});
    await expectToast(
      page,
      'Delivery Status Updated',
      'Message delivery status has been checked and updated.',
    );
    // The messages refresh at once (their own poll is every 30 s).
    await page.waitForFunction(
      () =>
        document.querySelectorAll('[data-testid="conversation-pane"] [data-delivery="delivered"]').length ===
        2,
    );
    expect(await states()).toEqual(['delivered', 'failed', 'failed', 'delivered', 'other']);
  });

  it("says 'Failed to check delivery status.' when the check fails", async () => {
    // A conversation of an inactive user that is gone by the time the admin asks.
    const [doomed] = await stack.db.dataSource.query<{ id: string }[]>(
      `INSERT INTO conversations (user_id, message_count, topics) VALUES ($1, 0, '{}') RETURNING id`,
      [seed.userIds.northeast],
    );
    await openMessages();
    const row = rowOf(doomed?.id ?? '');
    await row.getByTestId('conversation-last4').click();
    await stack.db.dataSource.query('DELETE FROM conversations WHERE id = $1', [doomed?.id]);
    await page.getByRole('button', { name: 'Check Delivery Status' }).click();
    await expectErrorToast(page, 'Error', 'Failed to check delivery status.');
  });

  it("links a conversation's phone to the Users screen searching it", async () => {
    await openMessages();
    await rowOf(seed.conversationIds.succulents).getByTestId('conversation-phone').click();
    await page.waitForURL((url) => url.pathname === '/admin/users');
    expect(new URL(page.url()).searchParams.get('search')).toBe(phoneOf('southwest'));
    await page.getByTestId('user-detail').getByRole('heading', { name: '(503) 555-0202' }).waitFor();
  });

  it("selects the row when its phone link is clicked: a new-tab click keeps this page's selection", async () => {
    await openMessages();
    const row = rowOf(seed.conversationIds.succulents);
    await row.waitFor();
    expect(await row.getAttribute('data-state')).toBeNull();
    expect(await page.getByTestId('no-selection').count()).toBe(1);

    // Ctrl/Cmd-click: the link opens the user in a new tab, and the click reaches the row.
    const [opened] = await Promise.all([
      context.waitForEvent('page'),
      row.getByTestId('conversation-phone').click({ modifiers: ['ControlOrMeta'] }),
    ]);
    await page
      .locator(`[data-conversation-id="${seed.conversationIds.succulents}"][data-state="selected"]`)
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/messages');
    expect(await page.locator('[data-testid="conversation-row"][data-state="selected"]').count()).toBe(1);
    expect(await row.getByTestId('conversation-last4').getAttribute('aria-pressed')).toBe('true');
    // The conversation's messages open in the pane.
    await pane().getByRole('heading', { name: '(503) 555-0202' }).waitFor();
    await pane().getByTestId('message').first().waitFor();
    expect(await pane().getByTestId('message').count()).toBe(3);
    expect(await page.getByTestId('no-selection').count()).toBe(0);

    // The new tab is the Users screen searching the number.
    await opened.waitForURL((url) => url.pathname === '/admin/users');
    expect(new URL(opened.url()).searchParams.get('search')).toBe(phoneOf('southwest'));
    await opened.getByTestId('user-detail').getByRole('heading', { name: '(503) 555-0202' }).waitFor();
    expect(errors).toEqual([]);
  });

  it("shows test users' conversations in Test Data Mode, without delivery icons", async () => {
    await openMessages();
    await rows().first().waitFor();
    await page.getByRole('switch', { name: 'Test Data Mode' }).click();
    await page.waitForFunction(
      (total) => document.querySelector('[data-testid="stat-total-messages-value"]')?.textContent === total,
      INSIGHT_STATS.messages.test.totalMessages,
    );
    expect(await cards()).toEqual(INSIGHT_STATS.messages.test);
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="conversation-row"]').length === 1,
    );
    await rowOf(seed.conversationIds.tester).getByTestId('conversation-last4').click();
    const messages = pane().getByTestId('message');
    await messages.first().waitFor();
    expect(await messages.count()).toBe(3);
    expect(await pane().locator('[data-direction="outbound"]').count()).toBe(1);
    expect(await pane().getByTestId('delivery-status').count()).toBe(0);
  });
  it('shows relative times with the thresholds 60 s, 60 min, 24 h, 30 days and 12 months', async () => {
    await openMessages();
    const time = rowOf(seed.conversationIds.deliveries).getByTestId('conversation-time');
    const at = Date.parse((await time.getAttribute('datetime')) ?? '');
    const second = 1000;
    const minute = 60 * second;
    const hour = 60 * minute;
    const day = 24 * hour;
    const cases: [number, string][] = [
      [0, 'Just now'],
      [59 * second, '59 seconds ago'],
      [60 * second, '1 minute ago'],
      [60 * minute - second, '59 minutes ago'],
      [60 * minute, '1 hour ago'],
      [24 * hour - second, '23 hours ago'],
      [24 * hour, '1 day ago'],
      [30 * day - second, '29 days ago'],
      [30 * day, '1 month ago'],
      [360 * day - second, '11 months ago'],
      [360 * day, '1 year ago'],
    ];
    const shown: [number, string][] = [];
    for (const [after] of cases) {
      await page.clock.setFixedTime(at + after);
      await page.goto('/admin/messages');
      shown.push([after, await time.innerText()]);
    }
    expect(shown).toEqual(cases);
  });

  it('starts again at page 1 when Test Data Mode changes', async () => {
    await openMessages();
    await rows().first().waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByTestId('page-indicator').filter({ hasText: 'Page 2 of 2' }).waitFor();
    const mode = page.getByRole('switch', { name: 'Test Data Mode' });
    await mode.click();
    await page.getByTestId('page-indicator').filter({ hasText: 'Page 1 of 1' }).waitFor();
    await rowOf(seed.conversationIds.tester).waitFor();
    expect(await rows().count()).toBe(1);
    await mode.click();
    await page.getByTestId('page-indicator').filter({ hasText: 'Page 1 of 2' }).waitFor();
    await rowOf(seed.conversationIds.deliveries).waitFor();
  });

  it('moves to the last page when a poll finds the list shorter than the page shown', async () => {
    // 20 more conversations, older than any other: a third page, holding 4 of them.
    const extra = await stack.db.dataSource.query<{ id: string }[]>(
      `INSERT INTO conversations (user_id, message_count, topics, started_at, last_message_at)
       SELECT $1, 1, '{}', now() - interval '400 days', now() - interval '400 days' - n * interval '1 minute'
         FROM generate_series(1, 20) AS n RETURNING id`,
      [seed.userIds.northeast],
    );
    try {
      await recordFetches(page);
      await openMessages();
      await rows().first().waitFor();
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByTestId('page-indicator').filter({ hasText: 'Page 2 of 3' }).waitFor();
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByTestId('page-indicator').filter({ hasText: 'Page 3 of 3' }).waitFor();
    } finally {
      await stack.db.dataSource.query('DELETE FROM conversations WHERE id = ANY($1)', [
        extra.map((c) => c.id),
      ]);
    }
    await advanceClock(page, 30_000, 10_000);
    await page.getByTestId('page-indicator').filter({ hasText: 'Page 2 of 2' }).waitFor();
    await page.waitForFunction(
      (count) => document.querySelectorAll('[data-testid="conversation-row"]').length === count,
      seed.realConversations - 20,
    );
  });

  it('pages by cursor over more pages than one, scrolls the list, and downloads the searched list as CSV', async () => {
    // 65 more conversations, older than any other, 45 of them about clubroot: five pages in all,
    // three of a search for clubroot.
    const extra = await stack.db.dataSource.query<{ id: string }[]>(
      `INSERT INTO conversations (user_id, message_count, topics, summary, started_at, last_message_at)
       SELECT $1, 1, '{}', CASE WHEN n <= 45 THEN 'Clubroot in the brassicas' END,
              now() - interval '400 days', now() - interval '400 days' - (n / 2) * interval '1 minute'
         FROM generate_series(1, 65) AS n RETURNING id`,
      [seed.userIds.northeast],
    );
    try {
      const order = (
        await stack.db.dataSource.query<{ id: string }[]>(
          'SELECT id FROM conversations WHERE NOT is_test_user ORDER BY last_message_at DESC, id DESC',
        )
      ).map((c) => c.id);
      const total = seed.realConversations + 65;
      const pages = Math.ceil(total / 20);
      const shownIds = () =>
        page.$$eval('[data-testid="conversation-row"]', (list) =>
          list.map((row) => row.getAttribute('data-conversation-id')),
        );
      const next = page.getByRole('button', { name: 'Next' });
      const previous = page.getByRole('button', { name: 'Previous' });

      await openMessages();
      await rowOf(order[0] ?? '').waitFor();
      expect(await page.getByTestId('conversation-total').innerText()).toBe(`${total} conversations`);
      const seen: Array<string | null> = [];
      for (let n = 1; n <= pages; n += 1) {
        if (n > 1) {
          await next.click();
          await rowOf(order[(n - 1) * 20] ?? '').waitFor();
        }
        expect(await page.getByTestId('page-indicator').innerText()).toBe(`Page ${n} of ${pages}`);
        seen.push(...(await shownIds()));
      }
      // Every conversation once, in order: no row twice, none left out.
      expect(seen).toEqual(order);
      expect(await next.isDisabled()).toBe(true);

      // The list scrolls within its own box to its last row.
      await previous.click();
      await rowOf(order[(pages - 2) * 20] ?? '').waitFor();
      expect(await page.getByTestId('page-indicator').innerText()).toBe(`Page ${pages - 1} of ${pages}`);
      const list = page.getByTestId('conversation-list');
      const box = await list.evaluate((el) => ({ scroll: el.scrollHeight, client: el.clientHeight }));
      expect(box.scroll).toBeGreaterThan(box.client);
      await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      await page.waitForFunction(() => {
        const el = document.querySelector('[data-testid="conversation-list"]');
        return el !== null && el.scrollTop + el.clientHeight >= el.scrollHeight - 1;
      });
      const last = rowOf(order[(pages - 1) * 20 - 1] ?? '');
      expect(await last.isVisible()).toBe(true);

      // A search pages on by cursor too; the CSV holds every match of the current search.
      await search().fill('clubroot');
      await page.getByTestId('page-indicator').filter({ hasText: 'Page 1 of 3' }).waitFor();
      expect(await page.getByTestId('conversation-total').innerText()).toBe('45 conversations');
      await next.click();
      await page.getByTestId('page-indicator').filter({ hasText: 'Page 2 of 3' }).waitFor();
      await next.click();
      await page.getByTestId('page-indicator').filter({ hasText: 'Page 3 of 3' }).waitFor();
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid="conversation-row"]').length === 5,
      );
      const link = page.getByTestId('download-csv');
      expect(await link.getAttribute('href')).toContain('search=clubroot');
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      const path = await download.path();
      const csv = readFileSync(path, 'utf8');
      const lines = csv.split(/\r?\n/).filter((line) => line !== '');
      expect(lines).toHaveLength(1 + 45);
      expect(lines.slice(1).every((line) => line.includes('Clubroot in the brassicas'))).toBe(true);
    } finally {
      await stack.db.dataSource.query('DELETE FROM conversations WHERE id = ANY($1)', [
        extra.map((c) => c.id),
      ]);
    }
    expect(errors).toEqual([]);
  });

  it("polls the conversations, the open conversation's messages and the stats every 30 s", async () => {
    await recordFetches(page);
    await openMessages();
    await rowOf(seed.conversationIds.deliveries).getByTestId('conversation-last4').click();
    await pane().getByTestId('message').first().waitFor();
    // 120 s of page time: room for more polls than are counted.
    await advanceClock(page, 120_000, 10_000);
    const messagesPath = `/api/admin/conversations/${seed.conversationIds.deliveries}/messages`;
    expect(await pollingProblems(page, '/api/admin/conversations', 30_000, 2)).toEqual([]);
    expect(await pollingProblems(page, messagesPath, 30_000, 2)).toEqual([]);
    expect(await pollingProblems(page, '/api/admin/messages/stats', 30_000, 2)).toEqual([]);
  });
});
