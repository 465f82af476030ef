// The Garden Calendar screen's endpoints through the real gateway: guard, validation, the error
// filter and Postgres, with the calendar's rows arranged directly.
import type {
  GardenCalendarAlert,
  GardenCalendarPreview,
  GardenCalendarSend,
  GardenCalendarSubscribersPage,
  GardenCalendarSummary,
  GardenCalendarUpcoming,
} from '@sprout/contracts';
import { calendarTipsFor, localInstant } from '@sprout/gardening';
import { useClosable } from '@sprout/testing';
import { login, startSignedIn } from './support/gateway';

const BASE = '/api/admin/garden-calendar';
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

const gw = useClosable(() => startSignedIn());

beforeEach(async () => {
  await gw.ds.query(`TRUNCATE "users", "weather_alerts", "settings" CASCADE`);
});

const get = (url: string) => gw.app.inject({ method: 'GET', url, headers: { cookie: gw.cookie } });
const put = (url: string, payload: unknown) =>
  gw.app.inject({
    method: 'PUT',
    url,
    headers: { cookie: gw.cookie },
    payload: payload as Record<string, unknown>,
  });

const errorOf = (res: { statusCode: number; json: <T>() => T }) => ({
  status: res.statusCode,
  message: res.json<{ message: string }>().message,
});

let phoneSeq = 100;
/** A user with a fictional number, in a tips status since `since`. */
async function user(
  tipsStatus: string,
  values: { since?: Date; zip?: string; zone?: string } = {},
): Promise<{ id: string; phone: string }> {
  const phone = `+1503555${String((phoneSeq++ % 100) + 100).padStart(4, '0')}`;
  const [row] = await gw.ds.query<Array<{ id: string }>>(
    `INSERT INTO "users" ("phone_number", "zip_code", "hardiness_zone", "tips_status", "tips_status_at")
     VALUES ($1, $2, $3, $4, $5) RETURNING "id"`,
    [phone, values.zip ?? '97201', values.zone ?? '8b', tipsStatus, values.since ?? new Date()],
  );
  return { id: row!.id, phone };
}

/** An outbound message of the user's (a conversation of its own), with its status and SMS cost. */
async function message(userId: string, status: string, smsCost: number | null): Promise<string> {
  const [conversation] = await gw.ds.query<Array<{ id: string }>>(
    `INSERT INTO "conversations" ("user_id") VALUES ($1) RETURNING "id"`,
    [userId],
  );
  const [row] = await gw.ds.query<Array<{ id: string }>>(
    `INSERT INTO "messages" ("user_id", "conversation_id", "direction", "content", "status", "sms_cost", "kind")
     VALUES ($1, $2, 'outbound', 'tip', $3, $4, 'calendar') RETURNING "id"`,
    [userId, conversation!.id, status, smsCost],
  );
  return row!.id;
}

async function send(values: {
  userId: string;
  kind?: string;
  key: string;
  status: string;
  scheduledFor?: Date;
  sentAt?: Date | null;
  body?: string;
  messageId?: string | null;
  alertId?: string | null;
}): Promise<string> {
  const [row] = await gw.ds.query<Array<{ id: string }>>(
    `INSERT INTO "calendar_sends" ("user_id", "kind", "task_key", "scheduled_for", "status", "body", "message_id",
                                   "weather_alert_id", "sent_at")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING "id"`,
    [
      values.userId,
      values.kind ?? 'tip',
      values.key,
      values.scheduledFor ?? values.sentAt ?? new Date(),
      values.status,
      values.body ?? `Sprout: ${values.key}\nReply TIPS OFF to stop tips`,
      values.messageId ?? null,
      values.alertId ?? null,
      values.sentAt ?? null,
    ],
  );
  return row!.id;
}

async function consent(userId: string, type: string, at: Date): Promise<void> {
  await gw.ds.query(
    `INSERT INTO "consent_events" ("user_id", "type", "keyword", "source", "created_at") VALUES ($1, $2, $3, 'sms', $4)`,
    [userId, type, type === 'opt_out' ? 'STOP' : 'TIPS OFF', at],
  );
}

describe('access', () => {
  it('answers 401 to every garden calendar endpoint without a session', async () => {
    for (const [method, path] of [
      ['GET', 'summary'],
      ['GET', 'subscribers'],
      ['GET', 'upcoming'],
      ['GET', 'preview?zip=97201'],
      ['GET', 'sends'],
      ['GET', 'alerts'],
      ['PUT', 'pause'],
    ] as const) {
      const res = await gw.app.inject({ method, url: `${BASE}/${path}`, payload: { paused: true } });
      expect(`${method} ${path} ${res.statusCode}`).toBe(`${method} ${path} 401`);
    }
    expect(await gw.ds.query(`SELECT * FROM "settings" WHERE "key" = 'garden_calendar_paused'`)).toEqual([]);
  });
});

describe('GET summary', () => {
  it('answers zeros, not paused and no opt-out rate on a new deployment', async () => {
    const res = await get(`${BASE}/summary`);
    expect(res.statusCode).toBe(200);
    expect(res.json<GardenCalendarSummary>()).toEqual({
      subscribers: 0,
      offered: 0,
      declined: 0,
      unsubscribed: 0,
      paused: false,
      optOutRateAfterTips: null,
      tippedUsers: 0,
      optedOutAfterTips: 0,
      sentLast30Days: 0,
    });
  });

  it('counts users by tips status, texts sent in 30 days, and who opted out within 7 days of a tip', async () => {
    const now = Date.now();
    const [a, b, c, d] = [
      await user('subscribed'),
      await user('subscribed'),
      await user('subscribed'),
      await user('subscribed'),
    ];
    await user('offered');
    await user('offered');
    await user('declined');
    await user('none');
    const sentTip = (userId: string, key: string, daysAgo: number) =>
      send({ userId, key, status: 'sent', sentAt: new Date(now - daysAgo * DAY) });
    // a: a tip, then STOP 2 days later (counts); b: a tip, TIPS OFF 10 days later (does not);
    // c: a tip and nothing; d: only an alert, then TIPS OFF (not tipped: not in the rate).
    await sentTip(a.id, 'tomatoes:start-indoors:2027', 5);
    await sentTip(b.id, 'kale:start-indoors:2027', 20);
    await sentTip(c.id, 'garlic:plant-garlic:2026', 40);
    await send({
      userId: c.id,
      key: 'peas:sow:2027',
      status: 'scheduled',
      scheduledFor: new Date(now + DAY),
    });
    await send({
      userId: d.id,
      kind: 'frost_alert',
      key: 'alert:x',
      status: 'sent',
      sentAt: new Date(now - DAY),
    });
    await consent(a.id, 'opt_out', new Date(now - 3 * DAY));
    await consent(b.id, 'tips_opt_out', new Date(now - 10 * DAY));
    await consent(d.id, 'tips_opt_out', new Date(now - HOUR));

    const summary = (await get(`${BASE}/summary`)).json<GardenCalendarSummary>();
    expect(summary).toEqual({
      // a, b and d are unsubscribed now (the consent trigger), c still subscribed
      subscribers: 1,
      offered: 2,
      declined: 1,
      unsubscribed: 3,
      paused: false,
      optOutRateAfterTips: 1 / 3,
      tippedUsers: 3,
      optedOutAfterTips: 1,
      sentLast30Days: 3,
    });
  });
});

describe('GET subscribers', () => {
  it('lists subscribers latest first, masked, with their tips sent, a page at a time', async () => {
    const now = Date.now();
    const older = await user('subscribed', { since: new Date(now - 3 * DAY), zip: '10001', zone: '7b' });
    const newer = await user('subscribed', { since: new Date(now - DAY) });
    const middle = await user('subscribed', { since: new Date(now - 2 * DAY) });
    await user('unsubscribed');
    await send({ userId: older.id, key: 'a', status: 'sent', sentAt: new Date(now - DAY) });
    await send({ userId: older.id, key: 'b', status: 'sent', sentAt: new Date(now - 2 * DAY) });
    await send({ userId: older.id, key: 'c', status: 'scheduled', scheduledFor: new Date(now + DAY) });
    await send({
      userId: older.id,
      key: 'alert:z',
      kind: 'frost_alert',
      status: 'sent',
      sentAt: new Date(now),
    });

    const first = await get(`${BASE}/subscribers?page=1&pageSize=2`);
    expect(first.statusCode).toBe(200);
    const page1 = first.json<GardenCalendarSubscribersPage>();
    expect(page1).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(page1.subscribers.map((s) => s.userId)).toEqual([newer.id, middle.id]);
    expect(page1.subscribers[0]!.maskedPhone).toBe(`+1503***${newer.phone.slice(-4)}`);
    expect(first.body).not.toContain(newer.phone);

    const page2 = (await get(`${BASE}/subscribers?page=2&pageSize=2`)).json<GardenCalendarSubscribersPage>();
    expect(page2.subscribers).toEqual([
      {
        userId: older.id,
        maskedPhone: `+1503***${older.phone.slice(-4)}`,
        zipCode: '10001',
        hardinessZone: '7b',
        since: new Date(now - 3 * DAY).toISOString(),
        tipsSent: 2,
      },
    ]);
  });

  it('answers 400 for a page or page size out of range', async () => {
    expect(errorOf(await get(`${BASE}/subscribers?pageSize=0`))).toEqual({
      status: 400,
      message: 'pageSize: must be a whole number from 1 to 200',
    });
    expect(errorOf(await get(`${BASE}/subscribers?page=two`))).toEqual({
      status: 400,
      message: 'page: must be a whole number from 1 to 1000000',
    });
  });
});

describe('GET upcoming', () => {
  it('counts the scheduled texts of today and the next 13 days by kind, every day present', async () => {
    const u = await user('subscribed');
    const today = new Date().toISOString().slice(0, 10);
    const dayAt = (days: number, hourUtc: number) =>
      new Date(Date.parse(`${today}T00:00:00Z`) + days * DAY + hourUtc * HOUR);
    await send({ userId: u.id, key: 't1', status: 'scheduled', scheduledFor: dayAt(0, 23) });
    await send({ userId: u.id, key: 't2', status: 'scheduled', scheduledFor: dayAt(2, 17) });
    await send({ userId: u.id, key: 't3', status: 'scheduled', scheduledFor: dayAt(2, 18) });
    await send({
      userId: u.id,
      key: 'f1',
      kind: 'frost_alert',
      status: 'scheduled',
      scheduledFor: dayAt(2, 16),
    });
    await send({
      userId: u.id,
      key: 'h1',
      kind: 'heat_alert',
      status: 'scheduled',
      scheduledFor: dayAt(13, 20),
    });
    // Not counted: beyond the 14 days, before today, sent or cancelled.
    await send({ userId: u.id, key: 'late', status: 'scheduled', scheduledFor: dayAt(14, 1) });
    await send({ userId: u.id, key: 'past', status: 'scheduled', scheduledFor: dayAt(-1, 20) });
    await send({
      userId: u.id,
      key: 'sent',
      status: 'sent',
      scheduledFor: dayAt(1, 17),
      sentAt: dayAt(1, 17),
    });
    await send({ userId: u.id, key: 'gone', status: 'cancelled', scheduledFor: dayAt(1, 18) });

    const res = await get(`${BASE}/upcoming`);
    expect(res.statusCode).toBe(200);
    const upcoming = res.json<GardenCalendarUpcoming>();
    expect(upcoming.timeZone).toBe('UTC');
    expect(upcoming.days).toHaveLength(14);
    expect(upcoming.days[0]!.date).toBe(today);
    const busy = upcoming.days.filter((d) => d.tip + d.frost_alert + d.heat_alert > 0);
    expect(busy).toEqual([
      { date: today, tip: 1, frost_alert: 0, heat_alert: 0 },
      { date: dayAt(2, 0).toISOString().slice(0, 10), tip: 2, frost_alert: 1, heat_alert: 0 },
      { date: dayAt(13, 0).toISOString().slice(0, 10), tip: 0, frost_alert: 0, heat_alert: 1 },
    ]);
  });

  it("counts days in the deployment's time zone (SPEND_TIME_ZONE)", async () => {
    const other = await gw.startAnother({ spendTimeZone: 'Pacific/Auckland' });
    const otherCookie = await login(other);
    const u = await user('subscribed');
    const aucklandToday = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland' }).format(
      new Date(),
    );
    const res0 = await other.inject({
      method: 'GET',
      url: `${BASE}/upcoming`,
      headers: { cookie: otherCookie },
    });
    const days0 = res0.json<GardenCalendarUpcoming>();
    expect(days0.timeZone).toBe('Pacific/Auckland');
    expect(days0.days[0]!.date).toBe(aucklandToday);
    const tomorrow = days0.days[1]!.date;
    // 02:00 tomorrow in Auckland is still today in UTC: counted on Auckland's second day.
    const twoAmTomorrow = localInstant(tomorrow, 2 * 60, 'Pacific/Auckland');
    await send({ userId: u.id, key: 'nz', status: 'scheduled', scheduledFor: twoAmTomorrow });
    const days = (
      await other.inject({ method: 'GET', url: `${BASE}/upcoming`, headers: { cookie: otherCookie } })
    ).json<GardenCalendarUpcoming>().days;
    expect(days.filter((d) => d.tip > 0)).toEqual([
      { date: tomorrow, tip: 1, frost_alert: 0, heat_alert: 0 },
    ]);
  });
});

describe('GET preview', () => {
  it("answers 97201's zone, time zone, frost dates and its 8 weeks of tips from a given day", async () => {
    const res = await get(`${BASE}/preview?zip=97201&from=2027-02-01`);
    expect(res.statusCode).toBe(200);
    const preview = res.json<GardenCalendarPreview>();
    expect(preview).toMatchObject({
      zipCode: '97201',
      place: 'Portland, OR',
      zone: '8b',
      timeZone: 'America/Los_Angeles',
      lastFrost: '03-25',
      firstFrost: '11-15',
      from: '2027-02-01',
      until: '2027-03-28',
    });
    expect(preview.tips.length).toBeGreaterThan(0);
    expect(preview.tips.map((t) => t.key)).toContain('tomatoes:start-indoors:2027');
    for (const tip of preview.tips) {
      expect(tip.date >= '2027-02-01' && tip.date <= '2027-03-28').toBe(true);
      expect(tip.text.endsWith('Reply TIPS OFF to stop tips')).toBe(true);
    }
    // The same tips the sender plans from: the planner's own answer for that window.
    expect(preview.tips).toEqual(
      calendarTipsFor({
        zipCode: '97201',
        from: new Date('2027-02-01T20:00:00Z'),
        until: new Date('2027-03-28T20:00:00Z'),
      }),
    );
  });

  it('previews from today in the ZIP’s time zone when no day is given', async () => {
    const preview = (await get(`${BASE}/preview?zip=%2097201%20`)).json<GardenCalendarPreview>();
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(new Date());
    expect(preview.from).toBe(today);
    expect(preview.tips.every((t) => t.date >= today && t.date <= preview.until)).toBe(true);
  });

  it('answers 400 with a clear message for a missing, malformed or unknown ZIP, or a bad day', async () => {
    const cases: Array<[string, string]> = [
      ['', 'Please enter a 5-digit US ZIP code.'],
      ['?zip=', 'Please enter a 5-digit US ZIP code.'],
      ['?zip=9720', 'Please enter a 5-digit US ZIP code.'],
      ['?zip=97201-1234', 'Please enter a 5-digit US ZIP code.'],
      ['?zip=abcde', 'Please enter a 5-digit US ZIP code.'],
      ['?zip=00000', 'ZIP 00000 is not one we know: no hardiness zone or frost dates to time tips by.'],
      ['?zip=99999', 'ZIP 99999 is not one we know: no hardiness zone or frost dates to time tips by.'],
      ['?zip=97201&from=2027-02-30', 'from: must be a date (YYYY-MM-DD) between 2000 and 2099'],
      ['?zip=97201&from=tomorrow', 'from: must be a date (YYYY-MM-DD) between 2000 and 2099'],
    ];
    for (const [query, message] of cases) {
      expect({ query, ...errorOf(await get(`${BASE}/preview${query}`)) }).toEqual({
        query,
        status: 400,
        message,
      });
    }
  });
});

describe('GET sends and alerts', () => {
  it('lists sent texts newest first with masked phone, delivery status and SMS cost', async () => {
    const now = Date.now();
    const u = await user('subscribed');
    const delivered = await message(u.id, 'delivered', 0.0166);
    const queued = await message(u.id, 'queued', null);
    const older = await send({
      userId: u.id,
      key: 'kale:start-indoors:2027',
      status: 'sent',
      sentAt: new Date(now - 2 * HOUR),
      body: 'Sprout: start kale',
      messageId: delivered,
    });
    const newer = await send({
      userId: u.id,
      kind: 'frost_alert',
      key: 'alert:1',
      status: 'sent',
      sentAt: new Date(now - HOUR),
      body: 'Sprout: frost tonight',
      messageId: queued,
    });
    await send({ userId: u.id, key: 'skipped', status: 'skipped', scheduledFor: new Date(now - HOUR) });
    await send({ userId: u.id, key: 'later', status: 'scheduled', scheduledFor: new Date(now + HOUR) });

    const res = await get(`${BASE}/sends`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(u.phone);
    expect(res.json<GardenCalendarSend[]>()).toEqual([
      {
        id: newer,
        sentAt: new Date(now - HOUR).toISOString(),
        kind: 'frost_alert',
        maskedPhone: `+1503***${u.phone.slice(-4)}`,
        body: 'Sprout: frost tonight',
        deliveryStatus: 'queued',
        costUsd: null,
      },
      {
        id: older,
        sentAt: new Date(now - 2 * HOUR).toISOString(),
        kind: 'tip',
        maskedPhone: `+1503***${u.phone.slice(-4)}`,
        body: 'Sprout: start kale',
        deliveryStatus: 'delivered',
        costUsd: 0.0166,
      },
    ]);
    expect((await get(`${BASE}/sends?limit=1`)).json<GardenCalendarSend[]>().map((s) => s.id)).toEqual([
      newer,
    ]);
    expect(errorOf(await get(`${BASE}/sends?limit=0`))).toEqual({
      status: 400,
      message: 'limit: must be a whole number from 1 to 500',
    });
  });

  it('lists weather alerts newest first with the texts sent about each', async () => {
    const now = Date.now();
    const [freeze] = await gw.ds.query<Array<{ id: string }>>(
      `INSERT INTO "weather_alerts" ("grid_key", "kind", "event_date", "low_f", "high_f", "forecast", "raised_at")
       VALUES ('PQR/112/103', 'freeze', '2027-01-12', 27, NULL, 'Mostly clear, with a low around 27.', $1) RETURNING "id"`,
      [new Date(now - HOUR)],
    );
    const [heat] = await gw.ds.query<Array<{ id: string }>>(
      `INSERT INTO "weather_alerts" ("grid_key", "kind", "event_date", "low_f", "high_f", "forecast", "raised_at")
       VALUES ('PSR/158/56', 'heat', '2026-07-02', NULL, 112, 'Sunny and hot, high near 112.', $1) RETURNING "id"`,
      [new Date(now - 30 * DAY)],
    );
    const a = await user('subscribed');
    const b = await user('subscribed');
    const c = await user('unsubscribed');
    for (const u of [a, b]) {
      await send({
        userId: u.id,
        kind: 'frost_alert',
        key: `alert:${freeze!.id}`,
        status: 'sent',
        sentAt: new Date(now),
        alertId: freeze!.id,
      });
    }
    await send({
      userId: c.id,
      kind: 'frost_alert',
      key: `alert:${freeze!.id}`,
      status: 'cancelled',
      alertId: freeze!.id,
    });

    const res = await get(`${BASE}/alerts`);
    expect(res.statusCode).toBe(200);
    expect(res.json<GardenCalendarAlert[]>()).toEqual([
      {
        id: freeze!.id,
        gridKey: 'PQR/112/103',
        kind: 'freeze',
        eventDate: '2027-01-12',
        lowF: 27,
        highF: null,
        forecast: 'Mostly clear, with a low around 27.',
        raisedAt: new Date(now - HOUR).toISOString(),
        textsSent: 2,
      },
      {
        id: heat!.id,
        gridKey: 'PSR/158/56',
        kind: 'heat',
        eventDate: '2026-07-02',
        lowF: null,
        highF: 112,
        forecast: 'Sunny and hot, high near 112.',
        raisedAt: new Date(now - 30 * DAY).toISOString(),
        textsSent: 0,
      },
    ]);
    expect(errorOf(await get(`${BASE}/alerts?limit=x`))).toEqual({
      status: 400,
      message: 'limit: must be a whole number from 1 to 500',
    });
  });
});

describe('PUT pause', () => {
  it('writes the setting the sender reads, and the summary shows it', async () => {
    const paused = await put(`${BASE}/pause`, { paused: true });
    expect(paused.statusCode).toBe(200);
    expect(paused.json()).toEqual({ paused: true });
    expect(
      await gw.ds.query(`SELECT "value" FROM "settings" WHERE "key" = 'garden_calendar_paused'`),
    ).toEqual([{ value: true }]);
    expect((await get(`${BASE}/summary`)).json<GardenCalendarSummary>().paused).toBe(true);

    expect((await put(`${BASE}/pause`, { paused: false })).json()).toEqual({ paused: false });
    expect((await get(`${BASE}/summary`)).json<GardenCalendarSummary>().paused).toBe(false);
  });

  it('answers 400 for a body without paused: true or false, and changes nothing', async () => {
    await put(`${BASE}/pause`, { paused: true });
    for (const payload of [{}, { paused: 'no' }, { paused: null }, { paused: 0 }]) {
      expect({ payload, ...errorOf(await put(`${BASE}/pause`, payload)) }).toEqual({
        payload,
        status: 400,
        message: 'paused: must be true or false',
      });
    }
    const notJson = await gw.app.inject({
      method: 'PUT',
      url: `${BASE}/pause`,
      headers: { cookie: gw.cookie, 'content-type': 'application/json' },
      payload: '[true]',
    });
    expect(notJson.statusCode).toBe(400);
    expect((await get(`${BASE}/summary`)).json<GardenCalendarSummary>().paused).toBe(true);
  });
});
