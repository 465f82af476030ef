// The Garden Calendar screen (/admin/garden-calendar) in Chromium against the real api-gateway and
// Postgres: a new deployment's empty states, a ZIP preview of 97201, the pause switch, and a
// calendar with subscribers, scheduled texts, sends and an alert.
import type { GardenCalendarPreview } from '@sprout/contracts';
import { checkA11y } from '@sprout/testing/browser';
import type { DataSource } from 'typeorm';
import { useBrowserStack } from '../src/fixtures';
import { toastWithTitle } from '../src/helpers';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const PATH = '/admin/garden-calendar';

let ds: DataSource;
const { page, errors } = useBrowserStack({
  setup: async (stack) => {
    ds = stack.db.dataSource;
  },
});

const statValue = (name: string) => page.getByTestId(`stat-${name}-value`).innerText();
const pausedSetting = async (): Promise<unknown> =>
  (
    await ds.query<Array<{ value: unknown }>>(
      `SELECT "value" FROM "settings" WHERE "key" = 'garden_calendar_paused'`,
    )
  )[0]?.value;

async function openCalendar(): Promise<void> {
  await page.goto('/admin/dashboard');
  await page.getByTestId('sidebar-nav').getByRole('link', { name: 'Garden Calendar' }).click();
  await page.waitForURL(`**${PATH}`);
  await page.getByRole('heading', { name: 'Garden Calendar', level: 1 }).waitFor();
}

/** Browser errors other than the 400 a test provokes on purpose. */
const unexpectedErrors = () =>
  errors.filter((e) => !/Failed to load resource: the server responded with a status of 400/.test(e));

describe('the Garden Calendar screen', () => {
  it('opens from the sidebar on a new deployment with worded empty states', async () => {
    await openCalendar();
    await page.getByTestId('subscribers-empty').waitFor();
    expect(await page.getByTestId('subscribers-empty').getByRole('heading').innerText()).toBe(
      'No subscribers yet',
    );
    expect(await page.getByTestId('sends-empty').getByRole('heading').innerText()).toBe(
      'No tips or alerts sent yet',
    );
    expect(await page.getByTestId('alerts-empty').getByRole('heading').innerText()).toBe(
      'No weather alerts raised yet',
    );
    expect(await page.getByTestId('upcoming-empty').innerText()).toContain(
      'Nothing is scheduled for the next 14 days',
    );
    expect({
      subscribers: await statValue('subscribers'),
      sent: await statValue('sent-30-days'),
      rate: await statValue('opt-out-rate'),
      tips: await statValue('tips-state'),
    }).toEqual({ subscribers: '0', sent: '0', rate: '—', tips: 'Running' });
    expect(await page.getByTestId('stat-opt-out-rate-detail').innerText()).toBe('No tips sent yet');
    expect(await checkA11y(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('previews 97201: its zone, time zone, frost dates and 8 weeks of tips with dates and texts', async () => {
    await openCalendar();
    const preview = page.getByTestId('calendar-preview');
    await preview.getByLabel('ZIP code').fill('97201');
    await preview.getByLabel('Starting (optional: today)').fill('2027-02-01');
    await preview.getByRole('button', { name: 'Preview' }).click();
    await page.getByTestId('preview-result').waitFor();
    expect({
      place: await page.getByTestId('preview-place').innerText(),
      zone: await page.getByTestId('preview-zone').innerText(),
      timeZone: await page.getByTestId('preview-time-zone').innerText(),
      lastFrost: await page.getByTestId('preview-last-frost').innerText(),
      firstFrost: await page.getByTestId('preview-first-frost').innerText(),
    }).toEqual({
      place: 'Portland, OR',
      zone: '8b',
      timeZone: 'America/Los_Angeles',
      lastFrost: 'Mar 25',
      firstFrost: 'Nov 15',
    });
    // The rows are the API's tips, in order, each with its date and text.
    const answer = await page.request.get('/api/admin/garden-calendar/preview?zip=97201&from=2027-02-01');
    const { tips } = (await answer.json()) as GardenCalendarPreview;
    expect(tips.length).toBeGreaterThan(0);
    const rows = page.getByTestId('preview-tip');
    expect(await rows.count()).toBe(tips.length);
    expect(
      await page
        .getByTestId('preview-tip-date')
        .evaluateAll((cells) => cells.map((c) => c.getAttribute('data-date'))),
    ).toEqual(tips.map((t) => t.date));
    expect(await page.getByTestId('preview-tip-text').allInnerTexts()).toEqual(tips.map((t) => t.text));
    const tomatoes = rows.filter({ hasText: 'Tomatoes: start indoors' });
    expect(await tomatoes.getByTestId('preview-tip-text').innerText()).toMatch(
      /^Sprout: Time to start tomato seeds indoors in Portland[\s\S]*\nReply TIPS OFF to stop tips$/,
    );
    expect(await page.getByTestId('preview-tips').locator('caption').innerText()).toContain(
      'from Mon, Feb 1 to Sun, Mar 28',
    );

    // Today's 8 weeks (no day given), then a ZIP nobody can time: the server's reason.
    await preview.getByLabel('Starting (optional: today)').fill('');
    await preview.getByRole('button', { name: 'Preview' }).click();
    await page.getByTestId('preview-last-frost').waitFor();
    await preview.getByLabel('ZIP code').fill('00000');
    await preview.getByRole('button', { name: 'Preview' }).click();
    await preview.getByRole('alert').waitFor();
    expect(await preview.getByRole('alert').innerText()).toBe(
      'ZIP 00000 is not one we know: no hardiness zone or frost dates to time tips by.',
    );
    expect(await checkA11y(page)).toEqual([]);
    expect(unexpectedErrors()).toEqual([]);
  });

  it('pauses tips only once confirmed, with a toast, and resumes them', async () => {
    await openCalendar();
    const toggle = page.getByTestId('calendar-pause-switch');
    await page.getByTestId('stat-tips-state-value').getByText('Running').waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('false');

    await toggle.click();
    const confirm = page.getByRole('alertdialog');
    await confirm.waitFor();
    expect(await confirm.getByRole('heading').innerText()).toBe('Pause all tips?');
    expect(await confirm.innerText()).toContain('those due meanwhile are skipped, not sent later');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    expect(await pausedSetting()).toBeUndefined();

    await toggle.click();
    await confirm.getByRole('button', { name: 'Pause tips' }).click();
    expect(await toastWithTitle(page, 'Tips paused')).toEqual({
      title: 'Tips paused',
      description: 'No tip or alert goes out until you resume.',
      destructive: false,
    });
    await page.getByTestId('stat-tips-state-value').getByText('Paused').waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    expect(await page.getByTestId('calendar-pause-state').innerText()).toBe(
      'Paused: no tip or alert goes out until you resume.',
    );
    expect(await pausedSetting()).toBe(true);

    // A reload reads the switch from the server.
    await page.reload();
    await page.getByTestId('stat-tips-state-value').getByText('Paused').waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('true');

    // Resuming asks nothing: it only lets tips go out again.
    await toggle.click();
    await toastWithTitle(page, 'Tips resumed');
    await page.getByTestId('stat-tips-state-value').getByText('Running').waitFor();
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    expect(await pausedSetting()).toBe(false);
    expect(errors).toEqual([]);
  });

  it('shows subscribers, the next 14 days, recent sends with delivery and cost, and alerts', async () => {
    const now = Date.now();
    const [gardener] = await ds.query<Array<{ id: string }>>(
      `INSERT INTO "users" ("phone_number", "zip_code", "hardiness_zone", "tips_status", "tips_status_at")
       VALUES ('+15035550142', '97201', '8b', 'subscribed', $1) RETURNING "id"`,
      [new Date(now - 10 * DAY)],
    );
    const id = gardener!.id;
    const [conversation] = await ds.query<Array<{ id: string }>>(
      `INSERT INTO "conversations" ("user_id") VALUES ($1) RETURNING "id"`,
      [id],
    );
    const [sent] = await ds.query<Array<{ id: string }>>(
      `INSERT INTO "messages" ("user_id", "conversation_id", "direction", "content", "status", "sms_cost", "kind")
       VALUES ($1, $2, 'outbound', 'Sprout: start kale', 'delivered', 0.0166, 'calendar') RETURNING "id"`,
      [id, conversation!.id],
    );
    const [alert] = await ds.query<Array<{ id: string }>>(
      `INSERT INTO "weather_alerts" ("grid_key", "kind", "event_date", "low_f", "forecast", "raised_at")
       VALUES ('PQR/112/103', 'freeze', '2027-01-12', 27, 'Mostly clear, with a low around 27.', $1) RETURNING "id"`,
      [new Date(now - HOUR)],
    );
    await ds.query(
      `INSERT INTO "calendar_sends" ("user_id", "kind", "task_key", "scheduled_for", "status", "body", "message_id", "weather_alert_id", "sent_at")
       VALUES ($1, 'tip', 'kale:start-indoors:2027', $2, 'sent', 'Sprout: start kale', $3, NULL, $2),
              ($1, 'frost_alert', $4, $5, 'sent', 'Sprout: frost tonight', NULL, $6, $5),
              ($1, 'tip', 'tomatoes:start-indoors:2027', $7, 'scheduled', 'Sprout: start tomatoes', NULL, NULL, NULL),
              ($1, 'tip', 'peppers:start-indoors:2027', $8, 'scheduled', 'Sprout: start peppers', NULL, NULL, NULL)`,
      [
        id,
        new Date(now - 2 * HOUR),
        sent!.id,
        `alert:${alert!.id}`,
        new Date(now - HOUR),
        alert!.id,
        new Date(now + 3 * DAY),
        new Date(now + 3 * DAY + 10 * 60_000),
      ],
    );

    await openCalendar();
    const subscriber = page.getByTestId('subscriber-row');
    await subscriber.waitFor();
    expect(await subscriber.allInnerTexts()).toEqual([expect.stringContaining('+1503***0142')]);
    expect(await page.getByTestId('calendar-subscribers').innerText()).not.toContain('5550142');
    expect(await statValue('subscribers')).toBe('1');
    expect(await statValue('sent-30-days')).toBe('2');
    expect(await statValue('opt-out-rate')).toBe('0.0%');

    await page.getByTestId('upcoming-chart').waitFor();
    const totals = await page
      .getByTestId('upcoming-day')
      .evaluateAll((days) => days.map((d) => Number(d.getAttribute('data-total'))));
    expect(totals).toHaveLength(14);
    expect(totals.reduce((a, b) => a + b, 0)).toBe(2);
    expect(await page.getByTestId('upcoming-totals').innerText()).toBe(
      '2 tips, 0 frost alerts, 0 heat alerts scheduled; days in UTC.',
    );

    const sends = page.getByTestId('send-row');
    expect(await sends.count()).toBe(2);
    const kale = sends.filter({ hasText: 'Sprout: start kale' });
    expect(await kale.getByTestId('send-status').innerText()).toBe('Delivered');
    expect(await kale.innerText()).toContain('$0.0166');
    const frost = sends.filter({ hasText: 'Sprout: frost tonight' });
    expect(await frost.innerText()).toContain('Frost alert');
    expect(await frost.getByTestId('send-status').innerText()).toBe('No message');

    const alertRow = page.getByTestId('alert-row');
    expect(await alertRow.count()).toBe(1);
    const alertText = await alertRow.innerText();
    expect(alertText).toContain('Freeze');
    expect(alertText).toContain('Jan 12, 2027');
    expect(alertText).toContain('Low 27°F');
    expect(alertText).toMatch(/\t1$/);
    expect(await checkA11y(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
