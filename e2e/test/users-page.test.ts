// The Users screen (/admin/users) in Chromium against the real api-gateway and seeded data.
import { readFileSync } from 'node:fs';
import { checkA11y, hasHorizontalScroll } from '@sprout/testing/browser';
import { USER_EXPORT_COLUMNS } from '@sprout/contracts';
import { parseCsv } from '@sprout/testing';
import { useBrowserStack } from '../src/fixtures';
import { expectShownText } from '../src/helpers';
import {
  advanceClock,
  DELIVERIES_KEY_OUTCOMES,
  INSIGHT_STATS,
  type InsightSeed,
  phoneOf,
  pollingProblems,
  recordFetches,
  seedInsight,
  SEEDING_TIMEOUT_MS,
} from '../src/seed-insight';

const { stack, page, errors, openPage } = useBrowserStack();

const rows = () => page.getByTestId('user-row');
const detail = () => page.getByTestId('user-detail');

/** The phone numbers of the table's rows, top to bottom. */
async function phonesShown(): Promise<string[]> {
  return page
    .locator('[data-testid="user-row"] [data-column="phoneNumber"]')
    .evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-value') ?? ''));
}

/** Waits until the table shows these phone numbers, top to bottom (the server sorts: a fetch first). */
async function shows(phones: string[]): Promise<void> {
  await page
    .waitForFunction(
      (wanted) =>
        JSON.stringify(
          Array.from(
            document.querySelectorAll('[data-testid="user-row"] [data-column="phoneNumber"]'),
            (cell) => cell.getAttribute('data-value'),
          ),
        ) === JSON.stringify(wanted),
      phones,
      { timeout: 15_000 },
    )
    .catch(() => undefined);
  expect(await phonesShown()).toEqual(phones);
}

async function openUsers(path = '/admin/users'): Promise<void> {
  await page.goto(path);
  await page.getByRole('heading', { name: 'User Management', level: 1 }).waitFor();
}

describe('before anyone registers', () => {
  it("says 'No Users Found' and 'No users have registered yet.'", async () => {
    await openUsers();
    await expectShownText(page, 'users-empty', 'No Users Found', 'No users have registered yet.');
    expect(await page.getByTestId('stat-users-value').innerText()).toBe('0');
    expect(errors).toEqual([]);
  });
});

describe('with seeded users', () => {
  let seed: InsightSeed;
  const P = {
    pnw: phoneOf('pnw'),
    southwest: phoneOf('southwest'),
    midwest: phoneOf('midwest'),
    newcomer: phoneOf('newcomer'),
    northeast: phoneOf('northeast'),
  };

  beforeAll(async () => {
    seed = await seedInsight(stack.db.dataSource);
  }, SEEDING_TIMEOUT_MS);

  it('shows the five stat cards', async () => {
    await openUsers();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="stat-users-value"]')?.textContent === '5',
    );
    const card = (name: string) => page.getByTestId(`stat-${name}-value`).innerText();
    expect({
      users: await card('users'),
      activeUsers: await card('active-users'),
      newUsers: await card('new-users'),
      totalMessages: await card('total-messages'),
      engagementRate: await card('engagement-rate'),
    }).toEqual(INSIGHT_STATS.users.real);
    const titles = await page
      .getByRole('region', { name: 'User stats' })
      .getByRole('heading')
      .allInnerTexts();
    expect(titles).toEqual(['Users', 'Active Users', 'New Users', 'Total Messages', 'Engagement Rate']);
    expect(await page.getByTestId('stat-active-users-detail').innerText()).toBe('Last 24 hours');
    expect(await page.getByTestId('stat-new-users-detail').innerText()).toBe('This week');
  });

  it('lists users by last message, newest first, in a 500 px table with 4-decimal costs', async () => {
    await openUsers();
    await rows().first().waitFor();
    expect(await phonesShown()).toEqual([P.pnw, P.southwest, P.midwest, P.northeast, P.newcomer]);
    expect(await page.locator('th[data-column="lastMessageAt"]').getAttribute('aria-sort')).toBe(
      'descending',
    );
    const box = await page.getByTestId('users-table-scroll').boundingBox();
    expect(box?.height).toBe(500);
    // Every user is listed: no 'Showing the N most recently active' note.
    expect(await page.getByTestId('users-shown').count()).toBe(0);

    const pnwRow = rows().filter({ has: page.locator(`[data-value="${P.pnw}"]`) });
    const cell = (column: string) => pnwRow.locator(`[data-column="${column}"]`).innerText();
    expect({
      region: await cell('region'),
      status: await cell('isActive'),
      messages: await cell('totalMessages'),
      engagement: await cell('engagement'),
      sentiment: await cell('sentiment'),
      cost: await cell('totalCost'),
      profile: await cell('profileCompletionScore'),
    }).toEqual({
      region: 'Pacific Northwest',
      status: 'Inactive',
      messages: '24',
      engagement: 'High',
      sentiment: 'frustrated',
      cost: '$0.4321',
      profile: '90%',
    });
    const newcomerRow = rows().filter({ has: page.locator(`[data-value="${P.newcomer}"]`) });
    expect(await newcomerRow.locator('[data-column="lastMessageAt"]').innerText()).toBe('Never');
    expect(await newcomerRow.locator('[data-column="engagement"]').innerText()).toBe('Low');
    expect(await checkA11y(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  // Each column: its groups of equal values in ascending order, then the users without a value (last
  // in both directions); descending is the groups reversed. Users in one group share the value
  // ('+'); the server breaks their tie by user id, in the sort's direction.
  type Groups = (keyof typeof P)[][];
  const columns: [string, string, string, string?][] = [
    ['phoneNumber', 'Phone Number', 'pnw southwest midwest newcomer northeast'],
    ['region', 'Region', 'midwest northeast pnw southwest', 'newcomer'],
    ['isActive', 'Status', 'pnw+northeast southwest+midwest+newcomer'],
    ['totalMessages', 'Messages', 'newcomer southwest midwest northeast pnw'],
    ['engagement', 'Engagement', 'southwest+newcomer midwest+northeast pnw'],
    ['sentiment', 'Sentiment', 'midwest pnw newcomer+northeast southwest'],
    ['totalCost', 'Cost', 'newcomer midwest southwest pnw northeast'],
    ['profileCompletionScore', 'Profile', 'newcomer northeast southwest midwest pnw'],
    ['createdAt', 'Joined', 'northeast pnw southwest midwest newcomer'],
    ['lastMessageAt', 'Last Message', 'northeast midwest southwest pnw', 'newcomer'],
  ];
  const seeded = (name: string): keyof typeof P => {
    if (!(name in P)) throw new Error(`No seeded user ${name}`);
    return name as keyof typeof P;
  };
  const groupsOf = (text = ''): Groups =>
    text
      .split(' ')
      .filter(Boolean)
      .map((group) => group.split('+').map(seeded));
  // The order after the first click (ascending) and after the second (descending).
  const orders = columns.map(([column, label, valued, unvalued]): [string, string, Groups, Groups] => {
    const groups = groupsOf(valued);
    const last = groupsOf(unvalued);
    return [column, label, [...groups, ...last], [...groups.reverse(), ...last]];
  });
  /** The phones in order: groups in turn, each group by user id in the direction. */
  const phonesOf = (groups: Groups, direction: 'asc' | 'desc'): string[] =>
    groups.flatMap((group) =>
      [...group]
        .sort((a, b) => {
          const order = seed.userIds[a] < seed.userIds[b] ? -1 : 1;
          return direction === 'asc' ? order : -order;
        })
        .map((k) => P[k]),
    );

  it('sorts every column ascending on the first click and descending on the second', async () => {
    await openUsers();
    await rows().first().waitFor();
    const header = page.locator('thead');
    const sortOf = (column: string) => page.locator(`th[data-column="${column}"]`).getAttribute('aria-sort');
    // Each column is left sorted descending: the next column's first click must still sort ascending.
    for (const [column, label, ascending, descending] of orders) {
      const button = header.getByRole('button', { name: label, exact: true });
      for (const [direction, groups] of [
        ['ascending', ascending],
        ['descending', descending],
      ] as const) {
        await button.click();
        await page.waitForFunction(
          ([c, d]) => document.querySelector(`th[data-column="${c}"]`)?.getAttribute('aria-sort') === d,
          [column, direction],
        );
        await shows(phonesOf(groups, direction === 'ascending' ? 'asc' : 'desc'));
      }
    }
    // Only one column is sorted at a time, and a third click toggles back to ascending.
    const sorted = await page.locator('th[aria-sort]:not([aria-sort="none"])').count();
    expect(sorted).toBe(1);
    await header.getByRole('button', { name: 'Last Message', exact: true }).click();
    expect(await sortOf('lastMessageAt')).toBe('ascending');
    await shows(phonesOf(orders.at(-1)?.[2] ?? [], 'asc'));
  });

  it('searches by phone number, and says when nothing matches', async () => {
    await openUsers();
    await rows().first().waitFor();
    const search = page.getByRole('searchbox', { name: 'Search users by phone number' });
    await search.fill('0203');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="user-row"]').length === 1);
    expect(await phonesShown()).toEqual([P.midwest]);
    expect(new URL(page.url()).searchParams.get('search')).toBe('0203');
    // The only match opens.
    await detail().getByRole('heading', { name: '(503) 555-0203' }).waitFor();

    await search.fill('9999');
    await expectShownText(page, 'users-empty', 'No Users Found', 'No users match your search criteria.');

    await search.fill('');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="user-row"]').length === 5);
  });

  /** Runs `body` while the newcomer's region reads `region`; after it the newcomer has none again. */
  async function withNewcomerRegion(region: string, body: () => Promise<void>): Promise<void> {
    const ds = stack.db.dataSource;
    await ds.query('UPDATE users SET region = $1 WHERE phone_number = $2', [region, P.newcomer]);
    try {
      await body();
    } finally {
      await ds.query('UPDATE users SET region = NULL WHERE phone_number = $1', [P.newcomer]);
    }
  }

  it('fits a 1440 px screen: every column, Last Message included, and a long region in full on hover', async () => {
    const long = 'Texas Hill Country and the Edwards Plateau';
    await withNewcomerRegion(long, async () => {
      await openPage({ viewport: { width: 1440, height: 900 } });
      await openUsers();
      await rows().first().waitFor();
      const scroller = page.getByTestId('users-table-scroll');
      const overflow = await scroller.evaluate((el) => el.scrollWidth - el.clientWidth);
      expect(overflow).toBe(0);
      const box = await scroller.boundingBox();
      const lastHeader = await page.locator('th[data-column="lastMessageAt"]').boundingBox();
      expect((lastHeader?.x ?? 0) + (lastHeader?.width ?? 0)).toBeLessThanOrEqual(
        (box?.x ?? 0) + (box?.width ?? 0),
      );
      const region = rows()
        .filter({ has: page.locator(`[data-value="${P.newcomer}"]`) })
        .locator('[data-column="region"] span');
      expect(await region.getAttribute('title')).toBe(long);
      expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
      expect(await hasHorizontalScroll(page)).toBe(false);
    });
  });

  it('downloads the users the table lists, in its order and with its search, as CSV', async () => {
    const formula = '=HYPERLINK("http://example.com","click")';
    await withNewcomerRegion(formula, async () => {
      await openUsers();
      await rows().first().waitFor();
      await page.locator('thead').getByRole('button', { name: 'Messages', exact: true }).click();
      await page.waitForFunction(
        () =>
          document.querySelector('th[data-column="totalMessages"]')?.getAttribute('aria-sort') ===
          'ascending',
      );
      const link = page.locator('[data-testid="download-csv"][href^="/api/admin/users/export"]');
      await page.waitForFunction(() =>
        document
          .querySelector('a[href^="/api/admin/users/export"]')
          ?.getAttribute('href')
          ?.includes('sort=totalMessages'),
      );
      expect(await link.getAttribute('href')).toBe(
        '/api/admin/users/export?showTestUsers=false&sort=totalMessages&order=asc',
      );
      // The table keeps its previous rows until the sorted page arrives, while the link already
      // asks for the new order: the rows are compared once they are the sorted ones.
      const shown = phonesOf(orders.find(([key]) => key === 'totalMessages')?.[2] ?? [], 'asc');
      await shows(shown);
      const before = new Date().toISOString().slice(0, 10);
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      const after = new Date().toISOString().slice(0, 10);
      expect([before, after].map((day) => `users-real-${day}.csv`)).toContain(download.suggestedFilename());
      const [header, ...lines] = parseCsv(readFileSync(await download.path(), 'utf8'));
      expect(header).toEqual([...USER_EXPORT_COLUMNS]);
      const column = (name: string) => (header ?? []).indexOf(name);
      expect(lines.map((line) => line[column('phone_number')])).toEqual(shown);
      const newcomer = lines.find((line) => line[column('phone_number')] === P.newcomer);
      // A formula in free text is neutralised, not run by the spreadsheet.
      expect(newcomer?.[column('region')]).toBe(`'${formula}`);
      expect(lines.find((line) => line[column('phone_number')] === P.pnw)?.[column('engagement')]).toBe(
        'High',
      );

      // The search goes with it.
      await page.getByRole('searchbox', { name: 'Search users by phone number' }).fill('0203');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="user-row"]').length === 1);
      expect(await link.getAttribute('href')).toBe(
        '/api/admin/users/export?search=0203&showTestUsers=false&sort=totalMessages&order=asc',
      );
      const [searched] = await Promise.all([page.waitForEvent('download'), link.click()]);
      const [, ...matched] = parseCsv(readFileSync(await searched.path(), 'utf8'));
      expect(matched.map((line) => line[column('phone_number')])).toEqual([P.midwest]);
      expect(errors).toEqual([]);
    });
  });

  it('opens /users?search={phone} as the Users screen with that search', async () => {
    await page.goto('/admin/dashboard');
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    // The Messages screen's link is a client-side navigation to /users?search=...
    await page.evaluate((phone) => {
      window.history.pushState({}, '', `/users?search=${encodeURIComponent(phone)}`);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, P.southwest);
    await page.waitForURL((url) => url.pathname === '/admin/users');
    expect(new URL(page.url()).searchParams.get('search')).toBe(P.southwest);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="user-row"]').length === 1);
    expect(await phonesShown()).toEqual([P.southwest]);
    await detail().getByRole('heading', { name: '(503) 555-0202' }).waitFor();
  });

  it('shows the Profile, Analytics and Conversations tabs of the selected user', async () => {
    await openUsers();
    await rows().first().waitFor();
    await page.getByRole('button', { name: '(503) 555-0201' }).click();
    await detail().getByRole('heading', { name: '(503) 555-0201' }).waitFor();

    // Profile
    const basic = page.getByTestId('basic-information');
    const basicText = await basic.innerText();
    for (const text of ['(503) 555-0201', 'Pacific Northwest', 'Inactive', '90%'])
      expect(basicText).toContain(text);
    const profile = await page.getByTestId('profile-details').innerText();
    for (const text of ['Raised beds on a sunny balcony', 'organic, native plants', 'detailed'])
      expect(profile).toContain(text);

    // Analytics
    await page.getByRole('tab', { name: 'Analytics' }).click();
    expect(await page.getByRole('tab', { name: 'Analytics' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByTestId('basic-information').count()).toBe(0);
    const metrics = await page.getByTestId('engagement-metrics').innerText();
    for (const text of ['24', '2', '9,600', '400', 'AI $0.4321 · SMS $0.0000'])
      expect(metrics).toContain(text);
    const activity = page.getByTestId('activity-row');
    expect(await activity.count()).toBe(2);
    const todayRow = await activity.first().locator('td').allInnerTexts();
    // The UTC day the messages were counted in, in whatever time zone the browser is.
    const utcToday = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(
      new Date(),
    );
    // Cost is the AI's; SMS Cost what sending cost (the seed sends nothing).
    expect(todayRow).toEqual([utcToday, '10', '$0.0060', '$0.0000']);

    // Conversations: the latest is open, its messages scrolled to the latest one.
    await page.getByRole('tab', { name: 'Conversations' }).click();
    const list = page.getByTestId('user-conversations');
    await list.waitFor();
    expect(await page.getByTestId('engagement-metrics').count()).toBe(0);
    expect((await list.boundingBox())?.height).toBe(600);
    const items = page.getByTestId('user-conversation');
    expect(await items.count()).toBe(2);
    expect(await items.first().getAttribute('aria-pressed')).toBe('true');
    const thread = detail().getByTestId('message-thread');
    await thread.getByTestId('message').first().waitFor();
    expect(await thread.getByTestId('message').count()).toBe(10);
    await page.waitForFunction(() => {
      const el = document.querySelector('[data-testid="user-detail"] [data-testid="message-thread"]');
      return (
        el !== null &&
        el.scrollHeight > el.clientHeight &&
        el.scrollTop + el.clientHeight >= el.scrollHeight - 2
      );
    });

    const details = page.getByTestId('user-conversation-details');
    // Collapsed until asked for.
    expect(await details.getByTestId('detail-row').count()).toBe(0);
    await details.getByRole('button', { name: 'Conversation Details' }).click();
    expect(await details.locator('dt').allInnerTexts()).toEqual([
      'Conversation ID',
      'Message Count',
      'Start Time',
      'End Time',
      'Summary',
      'Key Outcomes',
      'Next Steps',
    ]);
    const value = (label: string) => details.locator(`dt:text-is("${label}") + dd`);
    expect(await value('Conversation ID').innerText()).toBe(seed.conversationIds.deliveries);
    expect(await value('Message Count').innerText()).toBe('10');
    expect(await value('End Time').innerText()).toBe('Ongoing');
    expect(await value('Summary').innerText()).toBe(
      'Tomato leaves curling after a cold night on the balcony',
    );
    expect(await value('Key Outcomes').locator('li').allInnerTexts()).toEqual(DELIVERIES_KEY_OUTCOMES);
    expect(await value('Next Steps').locator('li').allInnerTexts()).toEqual([
      'Check the undersides of leaves for aphids',
      'Mulch the beds',
    ]);

    await items.nth(1).click();
    await details.getByText(seed.conversationIds.garlic).waitFor();
    expect(await value('End Time').innerText()).not.toBe('Ongoing');
    expect(await value('Summary').innerText()).toBe('Planning a fall garlic bed');
    expect(await value('Key Outcomes').locator('li').allInnerTexts()).toEqual([
      'Plant in October',
      'Use hardneck varieties',
    ]);
    // The second conversation's messages load after its details: wait for them, then count.
    await thread.getByTestId('message').nth(13).waitFor();
    expect(await thread.getByTestId('message').count()).toBe(14);
    expect(await checkA11y(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("downloads the selected user's conversations with their messages as CSV", async () => {
    const userId = seed.userIds.pnw;
    await openUsers();
    await page.getByRole('button', { name: '(503) 555-0201' }).click();
    await detail().getByRole('heading', { name: '(503) 555-0201' }).waitFor();
    await page.getByRole('tab', { name: 'Conversations' }).click();
    const link = detail().getByTestId('download-csv');
    await link.waitFor();
    expect(await link.innerText()).toBe('Download CSV');
    expect(await link.getAttribute('href')).toBe(`/api/admin/users/${userId}/conversations/export`);

    const before = new Date().toISOString().slice(0, 10);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const csv = readFileSync(await download.path(), 'utf8');
    const after = new Date().toISOString().slice(0, 10);
    // Named after the user and the (UTC) day it was taken.
    expect([before, after].map((day) => `user-${userId}-conversations-${day}.csv`)).toContain(
      download.suggestedFilename(),
    );

    const [header, ...lines] = parseCsv(csv);
    expect(header).toEqual([
      'conversation_id',
      'conversation_start_time',
      'conversation_end_time',
      'conversation_summary',
      'phone_number',
      'message_id',
      'created_at',
      'direction',
      'status',
      'content',
      'cost',
      'token_usage',
      'model_used',
    ]);
    const column = (name: string) => (header ?? []).indexOf(name);
    const field = (name: string) => lines.map((line) => line[column(name)]);
    // Every message of the user's two conversations, the older (garlic) first, each oldest first.
    const messagesOf = async (conversationId: string) =>
      stack.db.dataSource.query<{ id: string; content: string }[]>(
        'SELECT id, content FROM messages WHERE conversation_id = $1 ORDER BY created_at, id',
        [conversationId],
      );
    const expected = [
      ...(await messagesOf(seed.conversationIds.garlic)).map((m) => ({
        conversation: seed.conversationIds.garlic,
        ...m,
      })),
      ...(await messagesOf(seed.conversationIds.deliveries)).map((m) => ({
        conversation: seed.conversationIds.deliveries,
        ...m,
      })),
    ];
    expect(expected).toHaveLength(24);
    expect(lines.every((line) => line.length === header?.length)).toBe(true);
    expect(
      lines.map((line) => ({
        conversation: line[column('conversation_id')],
        id: line[column('message_id')],
        content: line[column('content')],
      })),
    ).toEqual(expected);
    expect(field('content')).toContain('Curling after a cold night is usually stress, not disease.');
    expect(new Set(field('conversation_summary'))).toEqual(
      new Set(['Planning a fall garlic bed', 'Tomato leaves curling after a cold night on the balcony']),
    );
    expect(new Set(field('phone_number'))).toEqual(new Set([P.pnw]));
    // Nothing of anyone else.
    for (const other of [P.southwest, P.midwest, P.northeast, P.newcomer, phoneOf('tester')])
      expect(csv).not.toContain(other);
    expect(csv).not.toContain(seed.conversationIds.succulents);
    expect(csv).not.toMatch(/succulent|compost|basil/i);
    expect(errors).toEqual([]);
  });

  it('says when a user has no profile, no recent activity and no conversations', async () => {
    await openUsers();
    await page.getByRole('button', { name: '(503) 555-0204' }).click();
    await detail().getByRole('heading', { name: '(503) 555-0204' }).waitFor();
    expect(await page.getByTestId('profile-details').innerText()).toContain('No profile data available');
    expect(await page.getByTestId('basic-information').innerText()).toContain('Active');
    await page.getByRole('tab', { name: 'Analytics' }).click();
    expect(await page.getByTestId('recent-activity').innerText()).toContain('No recent activity');
    await page.getByRole('tab', { name: 'Conversations' }).click();
    await detail().getByText('No conversations yet').waitFor();
  });

  it("shows 'Loading user details...' and then 'Failed to load user details' in red", async () => {
    const [gone] = await stack.db.dataSource.query<{ id: string }[]>(
      `INSERT INTO users (phone_number, last_message_at) VALUES ('+15035550277', now() - interval '1 minute') RETURNING id`,
    );
    await openUsers();
    await page.getByRole('button', { name: '(503) 555-0277' }).waitFor();
    await stack.db.dataSource.query('DELETE FROM users WHERE id = $1', [gone?.id]);

    // Hold the detail answer to see the loading text, then let it through (a 404 now).
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/api/admin/users/${gone?.id}`, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: '(503) 555-0277' }).click();
    await detail().getByText('Loading user details...').waitFor();
    release();
    const failure = detail().getByText('Failed to load user details');
    await failure.waitFor();
    expect(await failure.getAttribute('class')).toContain('text-red-600');
  });

  it('shows test users in Test Data Mode', async () => {
    await openUsers();
    await rows().first().waitFor();
    await page.getByRole('switch', { name: 'Test Data Mode' }).click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="stat-users-value"]')?.textContent === '1',
    );
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="user-row"]').length === 1);
    expect(await phonesShown()).toEqual([phoneOf('tester')]);
    expect(await page.getByTestId('stat-engagement-rate-value').innerText()).toBe(
      INSIGHT_STATS.users.test.engagementRate,
    );
    expect(await page.getByTestId('stat-total-messages-value').innerText()).toBe(
      INSIGHT_STATS.users.test.totalMessages,
    );
  });
  it('polls the users list every 10 s, the stats every 30 s and the selected user every 5 s', async () => {
    await recordFetches(page);
    await openUsers();
    await page.getByRole('button', { name: '(503) 555-0201' }).click();
    await detail().getByRole('heading', { name: '(503) 555-0201' }).waitFor();
    // 120 s of page time: room for more polls than are counted.
    await advanceClock(page, 120_000, 5_000);
    expect(await pollingProblems(page, '/api/admin/users', 10_000, 8)).toEqual([]);
    expect(await pollingProblems(page, '/api/admin/users/stats/overview', 30_000, 2)).toEqual([]);
    expect(await pollingProblems(page, `/api/admin/users/${seed.userIds.pnw}`, 5_000, 17)).toEqual([]);
  });
});

describe('with more users than one page', () => {
  const EXTRA = 250;
  /** Extra user n (1 to 250) costs $1 + n cents: above every seeded user, so cost order is known. */
  const extraPhone = (n: number) => `+1777000${String(n).padStart(4, '0')}`;

  beforeAll(async () => {
    await stack.db.dataSource.query(
      `INSERT INTO users (phone_number, total_cost, total_messages, last_message_at)
       SELECT '+1777000' || lpad(n::text, 4, '0'), 1 + n * 0.01, n % 30, now() - n * interval '1 minute'
         FROM generate_series(1, ${EXTRA}) n`,
    );
  });

  afterAll(async () => {
    await stack.db.dataSource.query(`DELETE FROM users WHERE phone_number LIKE '+1777000%'`);
  });

  const table = () => page.getByTestId('users-table-scroll');
  const rowAt = (index: number) => page.locator(`[data-testid="user-row"][data-index="${index}"]`);
  const phoneAt = async (index: number) =>
    rowAt(index).locator('[data-column="phoneNumber"]').getAttribute('data-value');
  const scrollTableTo = (top: number) =>
    table().evaluate((element, to) => {
      element.scrollTop = to;
    }, top);
  const tableScrollTop = () => table().evaluate((element) => element.scrollTop);

  /** Real users by cost, highest first, ties by id (the server's order; ascending is its reverse). */
  const byCostDescending = async (): Promise<string[]> =>
    (
      await stack.db.dataSource.query<Array<{ phone_number: string }>>(
        `SELECT phone_number FROM users WHERE NOT is_test_user ORDER BY total_cost DESC, id DESC`,
      )
    ).map((row) => row.phone_number);

  it('sorts every user on the server, loads more rows as it scrolls, and keeps only the visible ones in the DOM', async () => {
    const descending = await byCostDescending();
    const ascending = [...descending].reverse();
    expect(descending.slice(0, 2)).toEqual([extraPhone(EXTRA), extraPhone(EXTRA - 1)]);
    await openUsers();
    await rows().first().waitFor();
    const cost = page.locator('thead').getByRole('button', { name: 'Cost', exact: true });
    await cost.click();
    await rowAt(5).locator(`[data-value="${ascending[5]}"]`).waitFor({ timeout: 15_000 });
    expect(await phoneAt(0)).toBe(ascending[0]);
    await cost.click();
    await rowAt(0).locator(`[data-value="${descending[0]}"]`).waitFor({ timeout: 15_000 });
    expect(await phoneAt(1)).toBe(descending[1]);
    // One page (100 users) loaded, a window of them rendered.
    expect(await rows().count()).toBeLessThan(50);

    // Scrolling to the end of what is loaded asks for the next pages, until the last user.
    const last = descending.length - 1;
    for (let tries = 0; tries < 20 && (await rowAt(last).count()) === 0; tries++) {
      await scrollTableTo(1_000_000);
      await page.waitForTimeout(300);
    }
    await rowAt(last).waitFor();
    for (const index of [last, last - 1, last - 5, EXTRA - 1])
      expect(await phoneAt(index)).toBe(descending[index]);
    expect(await rows().count()).toBeLessThan(50);
    expect(await page.getByTestId('users-table').getAttribute('aria-rowcount')).toBe(
      String(descending.length + 1),
    );

    // Back to the middle: the rows there are rendered again, in order.
    const rowHeight = (await rowAt(last).boundingBox())?.height ?? 0;
    expect(rowHeight).toBeGreaterThan(20);
    await scrollTableTo(150 * rowHeight);
    await rowAt(150).waitFor();
    expect(await phoneAt(150)).toBe(descending[150]);
    expect(await phoneAt(151)).toBe(descending[151]);
    expect(errors).toEqual([]);
  });

  it('keeps the scroll position and the selection across a poll that refreshes the rows', async () => {
    // The page clock: the poll below comes when the test runs the clock 10 s on, not 10 s later.
    await recordFetches(page);
    await openUsers();
    await rows().first().waitFor();
    const cost = page.locator('thead').getByRole('button', { name: 'Cost', exact: true });
    await cost.click();
    await cost.click();
    await rowAt(0)
      .locator(`[data-value="${extraPhone(EXTRA)}"]`)
      .waitFor({ timeout: 15_000 });
    for (let tries = 0; tries < 20 && (await rowAt(180).count()) === 0; tries++) {
      await scrollTableTo(1_000_000);
      await page.waitForTimeout(300);
    }
    const rowHeight = (await rows().first().boundingBox())?.height ?? 0;
    await scrollTableTo(140 * rowHeight);
    const chosen = rowAt(145);
    await chosen.waitFor();
    const chosenPhone = extraPhone(EXTRA - 145);
    expect(await phoneAt(145)).toBe(chosenPhone);
    await chosen.locator('[data-column="phoneNumber"] button').click();
    await detail().waitFor();
    expect(await chosen.getAttribute('data-state')).toBe('selected');
    const scrollTop = await tableScrollTop();

    // The next poll (every 10 s) refetches every loaded page: the row shows the new count.
    await stack.db.dataSource.query(`UPDATE users SET total_messages = 777 WHERE phone_number = $1`, [
      chosenPhone,
    ]);
    await advanceClock(page, 10_000, 5_000);
    await chosen.locator('[data-column="totalMessages"]', { hasText: '777' }).waitFor();
    expect(await tableScrollTop()).toBe(scrollTop);
    expect(await phoneAt(145)).toBe(chosenPhone);
    expect(await rowAt(145).getAttribute('data-state')).toBe('selected');
    expect(await page.locator('[data-testid="user-row"][data-state="selected"]').count()).toBe(1);
    await detail().waitFor();
    expect(errors).toEqual([]);
  });
});
