// The Survey campaigns screen (/admin/surveys) in Chromium, against the whole survey path: the
// api-gateway serving the console, the survey-scheduler targeting users, and texts from real
// phones through the fake Twilio, sms-gateway and ai-responder.
import { DEFAULT_SURVEY_URL } from '@sprout/contracts';
import { User } from '@sprout/domain';
import type { ServiceApp } from '@sprout/platform';
import { checkA11y } from '@sprout/testing/browser';
import { LifecycleService } from '../../services/survey-scheduler/src/lifecycle/lifecycle.service';
import { useBrowserStack } from '../src/fixtures';
import { eventually, expectErrorToast, toastWithTitle } from '../src/helpers';
import { advanceClock, pollingProblems, recordFetches } from '../src/seed-insight';

const EXISTING_PHONE = '+15415550181';
const NEW_PHONE = '+15415550182';
const SURVEY_URL = 'https://forms.example.com/spring-check-in';

let scheduler: ServiceApp;

const { stack, page, errors } = useBrowserStack({
  responder: true,
  smsGateway: true,
  setup: async ({ services }) => {
    scheduler = await services.surveyScheduler();
  },
});

const ds = () => stack.db.dataSource;

/** A text from `from` through the fake Twilio's signed webhook; answers the reply's text once sent. */
async function text(from: string, body: string): Promise<string> {
  const { twilio } = stack.sms;
  const before = twilio.sent.filter((m) => m.to === from).length;
  await stack.sms.text(from, body);
  return eventually(async () => {
    const sent = twilio.sent.filter((m) => m.to === from);
    return sent.length > before ? sent[sent.length - 1]!.body : undefined;
  }, `the reply to ${from}`);
}

/** The user's latest conversation ends seven hours ago: their next text opens a new one. */
async function idleSevenHours(phone: string): Promise<void> {
  const user = await ds().getRepository(User).findOneByOrFail({ phoneNumber: phone });
  await ds().query(
    `UPDATE "conversations" SET "started_at" = "started_at" - interval '7 hours',
                                "last_message_at" = "last_message_at" - interval '7 hours'
      WHERE "user_id" = $1`,
    [user.id],
  );
  await ds().query(
    `UPDATE "users" SET "last_message_at" = "last_message_at" - interval '7 hours' WHERE "id" = $1`,
    [user.id],
  );
}

/** A gardener who joined yesterday, already targeted by the campaign (counted in its total). */
async function targetNewGardener(phone: string): Promise<void> {
  await ds().query(
    `WITH fresh AS (
       INSERT INTO "users" ("phone_number", "created_at") VALUES ($1, now() - interval '1 day') RETURNING "id"),
     targeted AS (
       INSERT INTO "survey_deliveries" ("campaign_id", "user_id") SELECT c."id", fresh."id" FROM "survey_campaigns" c, fresh)
     UPDATE "survey_campaigns" SET "total_target_users" = "total_target_users" + 1`,
    [phone],
  );
}

/** A survey-scheduler run now, with the settle margin passed (a user who just joined is walked past). */
const runScheduler = () => scheduler.app.get(LifecycleService).run({ now: new Date(Date.now() + 15_000) });

const rows = () => page.getByTestId('campaign-row');
const row = (name: string) =>
  rows().filter({ has: page.getByTestId('campaign-name').getByText(name, { exact: true }) });
const statValue = (name: string) => page.getByTestId(`stat-${name}-value`).innerText();

async function openSurveys(): Promise<void> {
  await page.goto('/admin/surveys');
  await page.getByRole('heading', { name: 'Survey Campaigns', level: 1 }).waitFor();
}

/** Browser errors other than the failed requests a test provokes on purpose. */
const unexpectedErrors = () =>
  errors.filter((e) => !/Failed to load resource: the server responded with a status of (400|409)/.test(e));

describe('the survey path, from the console to the phones and back', () => {
  it("shows 'Loading campaigns...', then 'No Surveys Yet' with Create Campaign and zero cards", async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === '/api/admin/survey-campaigns',
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await openSurveys();
    await page.getByText('Loading campaigns...').waitFor();
    release();
    const empty = page.getByTestId('surveys-empty');
    await empty.waitFor();
    expect(await empty.getByRole('heading').innerText()).toBe('No Surveys Yet');
    await page.getByRole('button', { name: 'Create Campaign' }).waitFor();
    expect({
      active: await statValue('active-campaigns'),
      total: await statValue('total-campaigns'),
      deliveries: await statValue('total-deliveries'),
      completed: await statValue('completed-campaigns'),
    }).toEqual({ active: '0', total: '0', deliveries: '0', completed: '0' });
    const titles = await page
      .getByRole('region', { name: 'Survey stats' })
      .getByRole('heading')
      .allInnerTexts();
    expect(titles).toEqual([
      'Active Campaigns',
      'Total Campaigns',
      'Total Deliveries',
      'Completed Campaigns',
    ]);
    expect(await checkA11y(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('creates a campaign; an existing phone gets the link in its next reply and a new phone in its second conversation, each once; the console shows the deliveries', async () => {
    // A gardener who texted before the campaign: an existing user.
    expect(await text(EXISTING_PHONE, 'When should I plant garlic in 97201?')).not.toContain('Quick survey');
    // ...a minute ago: the scheduler walks past users only once they are 10 s old (TARGETING_SETTLE_MS).
    await ds().query(
      `UPDATE "users" SET "created_at" = "created_at" - interval '1 minute' WHERE "phone_number" = $1`,
      [EXISTING_PHONE],
    );

    await openSurveys();
    await page.getByTestId('surveys-empty').getByRole('button', { name: 'Create Campaign' }).click();
    const dialog = page.getByTestId('create-campaign-dialog');
    await dialog.getByRole('heading', { name: 'Create Survey Campaign' }).waitFor();
    expect(await dialog.getByLabel('Campaign Name').inputValue()).toBe('');
    expect(await dialog.getByLabel('Survey URL').inputValue()).toBe(DEFAULT_SURVEY_URL);
    expect(await dialog.getByLabel('End Date').inputValue()).toBe('');
    expect(await dialog.getByRole('switch', { name: 'Existing Users' }).getAttribute('aria-checked')).toBe(
      'true',
    );
    expect(await dialog.getByRole('switch', { name: 'New Users' }).getAttribute('aria-checked')).toBe('true');
    expect(await dialog.innerText()).toContain('Reached in their next conversation');
    expect(await dialog.innerText()).toContain('Reached in their second conversation');
    expect(await dialog.getByRole('button', { name: 'Create Campaign' }).isDisabled()).toBe(true);
    expect(await checkA11y(page)).toEqual([]);

    await dialog.getByLabel('Campaign Name').fill('Spring check-in');
    await dialog.getByLabel('Survey URL').fill(SURVEY_URL);
    await dialog.getByLabel('End Date').fill('2099-06-30');
    await dialog.getByRole('button', { name: 'Create Campaign' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const spring = row('Spring check-in');
    await spring.waitFor();
    expect(await spring.getByTestId('campaign-status').innerText()).toBe('Live');
    // Delivered of targeted: the scheduler may already have targeted the existing gardener.
    expect(await spring.getByTestId('campaign-deliveries').innerText()).toMatch(/^0 of [01]$/);
    expect(await spring.getByTestId('campaign-created').innerText()).toMatch(
      /^Created [A-Z][a-z]{2} \d{1,2}, \d{4}$/,
    );
    expect(await spring.getByRole('link', { name: 'View Survey' }).getAttribute('href')).toBe(SURVEY_URL);
    expect(await spring.getByRole('link', { name: 'View Survey' }).getAttribute('target')).toBe('_blank');
    expect(await spring.getByTestId('campaign-dates').innerText()).toMatch(/ - Jun 30, 2099$/);
    await spring.getByRole('button', { name: 'Pause' }).waitFor();
    await spring.getByRole('button', { name: 'View Details' }).waitFor();

    // The api-gateway told the survey-scheduler, which targeted the existing gardener.
    await eventually(async () => {
      const [c] = await ds().query<Array<{ total: number }>>(
        `SELECT "total_target_users" AS total FROM "survey_campaigns" WHERE "name" = 'Spring check-in'`,
      );
      return c?.total === 1 ? true : undefined;
    }, 'the existing user to be targeted');

    // Existing user: the link in the next reply, and only there.
    const next = await text(EXISTING_PHONE, 'How deep should I plant the cloves?');
    expect(next).toContain(`Quick survey: ${SURVEY_URL}`);
    expect(await text(EXISTING_PHONE, 'Should I mulch them?')).not.toContain('Quick survey');

    // New user: nothing in the first conversation, the link in the second, once.
    expect(await text(NEW_PHONE, 'How often should I water tomatoes?')).not.toContain('Quick survey');
    await runScheduler();
    const [targeted] = await ds().query<Array<{ n: number }>>(
      `SELECT count(*)::int AS n FROM "survey_deliveries" d JOIN "users" u ON u."id" = d."user_id" WHERE u."phone_number" = $1`,
      [NEW_PHONE],
    );
    expect(targeted?.n).toBe(1);
    expect(await text(NEW_PHONE, 'And peppers?')).not.toContain('Quick survey');
    await idleSevenHours(NEW_PHONE);
    expect(await text(NEW_PHONE, 'My tomato leaves are curling, why?')).toContain(
      `Quick survey: ${SURVEY_URL}`,
    );
    expect(await text(NEW_PHONE, 'Thanks! And the basil?')).not.toContain('Quick survey');
    for (const phone of [EXISTING_PHONE, NEW_PHONE]) {
      const sent = stack.sms.twilio.sent.filter((m) => m.to === phone && m.body.includes('Quick survey'));
      expect(sent).toHaveLength(1);
    }

    // The console: 2 of 2 delivered, and the deliveries in the details.
    await openSurveys();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="campaign-deliveries"]')?.textContent === '2 of 2',
    );
    expect(await statValue('total-deliveries')).toBe('2');
    expect(await statValue('active-campaigns')).toBe('1');
    await row('Spring check-in').getByRole('button', { name: 'View Details' }).click();
    const details = page.getByTestId('campaign-details');
    await details.getByTestId('delivery-row').nth(1).waitFor();
    const phones = await details.getByTestId('delivery-phone').allInnerTexts();
    expect(phones).toEqual(['(541) 555-0182', '(541) 555-0181']);
    const conversations = await ds().query<Array<{ phone_number: string; conversation_id: string }>>(
      `SELECT u."phone_number", d."conversation_id" FROM "survey_deliveries" d JOIN "users" u ON u."id" = d."user_id"`,
    );
    expect(await details.getByTestId('delivery-conversation').allInnerTexts()).toEqual([
      conversations.find((c) => c.phone_number === NEW_PHONE)!.conversation_id,
      conversations.find((c) => c.phone_number === EXISTING_PHONE)!.conversation_id,
    ]);
    const [existing] = await ds().query<Array<{ delivered_at: Date }>>(
      `SELECT d."delivered_at" FROM "survey_deliveries" d JOIN "users" u ON u."id" = d."user_id" WHERE u."phone_number" = $1`,
      [EXISTING_PHONE],
    );
    expect(await details.getByTestId('delivery-time').nth(1).innerText()).toBe(
      await page.evaluate(
        (iso) =>
          new Intl.DateTimeFormat('en-US', {
            year: 'numeric',
            month: 'short',
            day: 'numeric',
            hour: 'numeric',
            minute: '2-digit',
          }).format(new Date(iso)),
        existing!.delivered_at.toISOString(),
      ),
    );
    expect(await checkA11y(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('pauses and resumes; a paused campaign gives no link', async () => {
    await openSurveys();
    const spring = row('Spring check-in');
    await spring.getByRole('button', { name: 'Pause' }).click();
    await spring.getByRole('button', { name: 'Resume' }).waitFor();
    expect(await spring.getByTestId('campaign-status').innerText()).toBe('Paused');
    expect(await statValue('active-campaigns')).toBe('0');

    // A gardener targeted before the pause texts while it lasts: no link.
    const late = '+15415550183';
    await targetNewGardener(late);
    expect(await text(late, 'When do I prune apple trees?')).not.toContain('Quick survey');

    await spring.getByRole('button', { name: 'Resume' }).click();
    await spring.getByRole('button', { name: 'Pause' }).waitFor();
    expect(await spring.getByTestId('campaign-status').innerText()).toBe('Live');
    expect(await statValue('active-campaigns')).toBe('1');
    expect(await text(late, 'And pear trees?')).toContain('Quick survey');
    expect(errors).toEqual([]);
  });

  it('edits the survey URL in the details; pending deliveries carry the new one', async () => {
    await openSurveys();
    await row('Spring check-in').getByRole('button', { name: 'View Details' }).click();
    const details = page.getByTestId('campaign-details');
    const input = details.getByLabel('Survey URL');
    expect(await input.inputValue()).toBe(SURVEY_URL);
    expect(await details.getByRole('button', { name: 'Save URL' }).isDisabled()).toBe(true);
    await input.fill('https://forms.example.com/spring-v2');
    await details.getByRole('button', { name: 'Save URL' }).click();
    await details.getByRole('button', { name: 'Save URL' }).and(page.locator(':disabled')).waitFor();
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'hidden' });
    expect(await row('Spring check-in').getByRole('link', { name: 'View Survey' }).getAttribute('href')).toBe(
      'https://forms.example.com/spring-v2',
    );
    const [stored] = await ds().query<Array<{ survey_url: string }>>(
      `SELECT "survey_url" FROM "survey_campaigns"`,
    );
    expect(stored?.survey_url).toBe('https://forms.example.com/spring-v2');

    // A gardener still pending gets the new link.
    const pending = '+15415550184';
    await targetNewGardener(pending);
    expect(await text(pending, 'When do I sow carrots?')).toContain(
      'Quick survey: https://forms.example.com/spring-v2',
    );
    expect(errors).toEqual([]);
  });

  it('lists pending deliveries as Pending in a list that scrolls within its maximum height', async () => {
    const [campaign] = await ds().query<Array<{ id: string }>>(`SELECT "id" FROM "survey_campaigns"`);
    await ds().query(
      `WITH fresh AS (
         INSERT INTO "users" ("phone_number", "created_at")
         SELECT '+1971555' || lpad(g::text, 4, '0'), now() - interval '2 days' FROM generate_series(1, 30) g
         RETURNING "id")
       INSERT INTO "survey_deliveries" ("campaign_id", "user_id") SELECT $1, "id" FROM fresh`,
      [campaign!.id],
    );
    await ds().query(
      `UPDATE "survey_campaigns" SET "total_target_users" = (SELECT count(*) FROM "survey_deliveries") WHERE "id" = $1`,
      [campaign!.id],
    );
    await openSurveys();
    await row('Spring check-in').getByRole('button', { name: 'View Details' }).click();
    const list = page.getByTestId('deliveries-list');
    await list.getByText('Pending').first().waitFor();
    const pending = await list.getByTestId('delivery-conversation').filter({ hasText: 'Pending' }).count();
    expect(pending).toBe(30);
    const box = await list.evaluate((el) => ({
      maxHeight: getComputedStyle(el).maxHeight,
      overflowY: getComputedStyle(el).overflowY,
      scrolls: el.scrollHeight > el.clientHeight,
    }));
    expect(box).toEqual({ maxHeight: '320px', overflowY: 'auto', scrolls: true });
    expect(await checkA11y(page)).toEqual([]);
  });

  it('shows the thrown texts as error toasts with the reason', async () => {
    await openSurveys();
    // Create refused by the server.
    await page.getByRole('button', { name: 'Create Campaign' }).click();
    const dialog = page.getByTestId('create-campaign-dialog');
    await dialog.getByLabel('Campaign Name').fill('Broken');
    await dialog.getByLabel('Survey URL').fill('ftp://forms.example.com/x');
    await dialog.getByRole('button', { name: 'Create Campaign' }).click();
    await expectErrorToast(page, 'Failed to create campaign', 'surveyUrl: must be an http(s) URL');
    await dialog.getByRole('switch', { name: 'Existing Users' }).click();
    await dialog.getByRole('switch', { name: 'New Users' }).click();
    await dialog.getByLabel('Survey URL').fill('https://forms.example.com/x');
    await dialog.getByRole('button', { name: 'Create Campaign' }).click();
    expect((await toastWithTitle(page, 'Please choose at least one target audience')).title).toBe(
      'Failed to create campaign',
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // The status is changed behind the console's back, then its button is refused.
    const refused = async (status: string, button: string, title: string, description: string) => {
      await ds().query(`UPDATE "survey_campaigns" SET "status" = $1`, [status]);
      await row('Spring check-in').getByRole('button', { name: button }).click();
      await expectErrorToast(page, title, description);
    };
    await refused(
      'paused',
      'Pause',
      'Failed to pause campaign',
      'Only a live campaign can be paused; this one is paused.',
    );
    // Reloaded, it shows Resume; the campaign is made live again.
    await openSurveys();
    await refused(
      'live',
      'Resume',
      'Failed to start campaign',
      'Only a paused campaign can be resumed; this one is live.',
    );

    // A URL the server refuses.
    await openSurveys();
    await row('Spring check-in').getByRole('button', { name: 'View Details' }).click();
    const details = page.getByTestId('campaign-details');
    await details.getByLabel('Survey URL').fill('not a url');
    await details.getByRole('button', { name: 'Save URL' }).click();
    await expectErrorToast(page, 'Failed to update survey URL', 'surveyUrl: must be an http(s) URL');
    expect(unexpectedErrors()).toEqual([]);
  });

  it('polls the campaign list every 30 s', async () => {
    await recordFetches(page);
    await openSurveys();
    await rows().first().waitFor();
    await advanceClock(page, 130_000, 10_000);
    expect(await pollingProblems(page, '/api/admin/survey-campaigns', 30_000, 3)).toEqual([]);
  });
});
