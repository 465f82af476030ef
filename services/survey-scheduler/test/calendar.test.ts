// The garden calendar on a fixed clock, against real Postgres and Redis and the fake NWS: tips
// planned into each subscriber's daytime (four time zones, a daylight-saving change), the
// monthly cap, consent checked again at send time, frost alerts once per subscriber, NWS outages.
import type { QueueName } from '@sprout/contracts';
import {
  CalendarSend,
  DEFAULT_CONVERSATION_IDLE_TIMEOUT_MS,
  Message,
  WeatherAlert,
  recordInbound,
  setGardenCalendarPaused,
} from '@sprout/domain';
import { localDateOf, localMinutesOf, timeZoneForZip, tipMinuteFor } from '@sprout/gardening';
import { JobQueues } from '@sprout/platform';
import { answerComplianceKeyword } from '@sprout/sms';
import { FakeNws } from '@sprout/testing';
import type { DataSource } from 'typeorm';
import { CalendarSenderService } from '../src/calendar/calendar-sender.service';
import { CALENDAR_SCHEDULERS } from '../src/calendar/calendar.processor';
import { TipsPlannerService } from '../src/calendar/tips-planner.service';
import { WeatherWatchService } from '../src/calendar/weather-watch.service';
import { useScheduler } from './support/scheduler';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('garden calendar', () => {
  let nws: FakeNws;
  let ds: DataSource;
  let planner: TipsPlannerService;
  let sender: CalendarSenderService;
  let weather: WeatherWatchService;
  let phoneSeq = 0;
  let clock = new Date('2027-04-20T15:00:00Z');
  const h = useScheduler(async (stores) => {
    nws = stores.adopt(await FakeNws.start({ now: () => clock }));
    return { nwsBaseUrl: nws.url, nwsTimeoutMs: 2_000 };
  });

  beforeAll(async () => {
    ds = h.ds;
    // The tests drive the jobs on their own clock: the real-time schedules are taken away.
    const queues = h.service.app.get(JobQueues);
    for (const [queue, id] of [
      ['calendar.plan', CALENDAR_SCHEDULERS.plan.id],
      ['calendar.send', CALENDAR_SCHEDULERS.send.id],
      ['calendar.weather', CALENDAR_SCHEDULERS.weather.id],
    ] as const satisfies ReadonlyArray<readonly [QueueName, string]>) {
      await queues.queue(queue).removeJobScheduler(id);
      await queues.queue(queue).drain(true);
    }
    planner = h.service.app.get(TipsPlannerService);
    sender = h.service.app.get(CalendarSenderService);
    weather = h.service.app.get(WeatherWatchService);
  });

  beforeEach(async () => {
    await ds.query(
      'TRUNCATE "calendar_sends", "weather_alerts", "consent_events", "messages", "conversations", "users" CASCADE',
    );
    await setGardenCalendarPaused(ds, false);
    nws.reset();
  });

  /** A subscriber in a ZIP who has talked about these crops (fictional 555-01xx numbers). */
  const subscriber = async (zipCode: string, texts: string[] = []): Promise<string> => {
    const phone = `+1503555${String(100 + (phoneSeq++ % 100)).padStart(4, '0')}`;
    const [row] = await ds.query<Array<{ id: string }>>(
      `INSERT INTO users (phone_number, zip_code, tips_status) VALUES ($1, $2, 'subscribed') RETURNING id`,
      [phone, zipCode],
    );
    for (const content of texts) {
      await recordInbound(ds, {
        from: { userId: row!.id },
        content,
        idleTimeoutMs: DEFAULT_CONVERSATION_IDLE_TIMEOUT_MS,
        at: new Date('2026-12-01T18:00:00Z'),
      });
    }
    return row!.id;
  };

  const sendsOf = (userId: string) =>
    ds.getRepository(CalendarSend).find({ where: { userId }, order: { scheduledFor: 'ASC' } });

  /** Rows of these users made due now, all at one instant. */
  const dueAt = async (at: Date): Promise<void> => {
    await ds.query(`UPDATE calendar_sends SET scheduled_for = $1 WHERE status = 'scheduled'`, [at]);
  };

  const statusOf = async (userId: string) => (await sendsOf(userId)).map((s) => s.status);

  describe('tips in local daytime', () => {
    it('plans every tip between 9:00 and 20:00 in each subscriber own time zone, at their own minute', async () => {
      const now = new Date('2027-03-08T12:00:00Z');
      const users = {
        '97201': await subscriber('97201', ['when do I set out tomatoes?']),
        '60601': await subscriber('60601', ['lettuce and potatoes this year']),
        '10001': await subscriber('10001', ['broccoli and chard, and some cilantro']),
        // Mountain time: Albuquerque (last frost ~Apr 7), whose lettuce tip falls in these two weeks.
        '87102': await subscriber('87102', ['lettuce']),
      };
      const report = await planner.plan(now);
      expect(report).toMatchObject({ subscribers: 4, paused: false });
      for (const [zip, userId] of Object.entries(users)) {
        const timeZone = timeZoneForZip(zip)!;
        const sends = await sendsOf(userId);
        expect(sends.length).toBeGreaterThan(0);
        for (const send of sends) {
          expect(send.scheduledFor.getTime()).toBeGreaterThanOrEqual(now.getTime());
          expect(localMinutesOf(send.scheduledFor, timeZone)).toBe(tipMinuteFor(userId));
          expect(localDateOf(send.scheduledFor, timeZone) < '2027-03-22').toBe(true);
          expect(send.body).toMatch(/\nReply TIPS OFF to stop tips$/);
        }
      }
    });

    it('keeps local time across the daylight-saving change (Chicago, Mar 14 2027)', async () => {
      const userId = await subscriber('60601', ['lettuce and potatoes']);
      await planner.plan(new Date('2027-03-08T12:00:00Z'));
      const sends = await sendsOf(userId);
      const lettuce = sends.find((s) => s.taskKey === 'lettuce:sow:2027');
      const potatoes = sends.find((s) => s.taskKey === 'potatoes:plant:2027');
      // Sow lettuce 4 weeks before the Apr 10 last frost (Mar 13, CST), potatoes 3 weeks (Mar 20, CDT).
      expect(localDateOf(lettuce!.scheduledFor, 'America/Chicago')).toBe('2027-03-13');
      expect(localDateOf(potatoes!.scheduledFor, 'America/Chicago')).toBe('2027-03-20');
      // The same local minute both days: a week less the hour the clocks went forward.
      expect(potatoes!.scheduledFor.getTime() - lettuce!.scheduledFor.getTime()).toBe(7 * DAY - HOUR);
    });

    it('sends due texts only in each time zone daytime, by daylight-saving time where it applies', async () => {
      const zips = ['97201', '60601', '10001', '96813'] as const;
      const ids: Record<string, string> = {};
      for (const zip of zips) {
        ids[zip] = await subscriber(zip);
        await ds.query(
          `INSERT INTO calendar_sends (user_id, kind, task_key, scheduled_for, body) VALUES ($1, 'tip', 'test:task:2027', $2, 'Sprout: a tip\nReply TIPS OFF to stop tips')`,
          [ids[zip], new Date('2027-03-14T12:00:00Z')],
        );
      }
      // Sunday Mar 14, 13:30 UTC: 9:30 in New York (EDT since 2:00; 8:30 had it stayed EST), 8:30
      // in Chicago, 6:30 in Portland, 3:30 in Honolulu.
      expect(await sender.sendDue(new Date('2027-03-14T13:30:00Z'))).toEqual({
        sent: 1,
        skipped: 0,
        cancelled: 0,
        later: 3,
      });
      expect(await statusOf(ids['10001']!)).toEqual(['sent']);
      // 14:30 UTC: 9:30 in Chicago.
      expect(await sender.sendDue(new Date('2027-03-14T14:30:00Z'))).toMatchObject({ sent: 1, later: 2 });
      // 19:30 UTC: 12:30 in Portland, 9:30 in Honolulu.
      expect(await sender.sendDue(new Date('2027-03-14T19:30:00Z'))).toMatchObject({ sent: 2, later: 0 });

      const messages = await ds.getRepository(Message).find({ where: { kind: 'calendar' } });
      expect(messages).toHaveLength(4);
      expect(messages.every((m) => m.status === 'queued' && m.direction === 'outbound')).toBe(true);
      // Each through the same send path as every reply: an sms.outbound job per message.
      const outbound = h.service.app.get(JobQueues).queue('sms.outbound');
      for (const m of messages) expect(await outbound.getJob(`outbound-${m.id}`)).toBeDefined();
      // Never twice: nothing is due any more.
      expect(await sender.sendDue(new Date('2027-03-14T19:31:00Z'))).toEqual({
        sent: 0,
        skipped: 0,
        cancelled: 0,
        later: 0,
      });
    });

    it('falls back an hour in November: 8:30 EST is not daytime', async () => {
      const userId = await subscriber('10001');
      await ds.query(
        `INSERT INTO calendar_sends (user_id, kind, task_key, scheduled_for, body) VALUES ($1, 'tip', 'test:fall:2027', $2, 'Sprout: a tip')`,
        [userId, new Date('2027-11-07T12:00:00Z')],
      );
      expect(await sender.sendDue(new Date('2027-11-07T13:30:00Z'))).toMatchObject({ sent: 0, later: 1 });
      expect(await sender.sendDue(new Date('2027-11-07T14:30:00Z'))).toMatchObject({ sent: 1 });
    });

    it('never plans a task twice, and plans nothing while paused', async () => {
      const userId = await subscriber('97201', ['tomatoes']);
      const now = new Date('2027-03-06T18:00:00Z');
      const first = await planner.plan(now);
      expect(first.scheduled).toBeGreaterThan(0);
      expect(await planner.plan(new Date(now.getTime() + HOUR))).toMatchObject({ scheduled: 0, capped: 0 });
      expect((await sendsOf(userId)).map((s) => s.taskKey)).toEqual(['tomatoes:start-indoors:2027']);

      await setGardenCalendarPaused(ds, true);
      expect(await planner.plan(new Date('2027-03-10T18:00:00Z'))).toMatchObject({
        paused: true,
        scheduled: 0,
      });
      // Due while paused: skipped, not sent later in a flood.
      await dueAt(new Date('2027-03-13T19:00:00Z'));
      expect(await sender.sendDue(new Date('2027-03-13T20:00:00Z'))).toMatchObject({ sent: 0, skipped: 1 });
      expect((await sendsOf(userId))[0]).toMatchObject({
        status: 'skipped',
        skipReason: 'paused',
        messageId: null,
      });
    });
  });

  describe('consent at send time', () => {
    it('a STOP between scheduling and sending cancels what was scheduled, and nothing is sent', async () => {
      const userId = await subscriber('97201', ['tomatoes and peppers']);
      await planner.plan(new Date('2027-03-06T18:00:00Z'));
      expect((await statusOf(userId)).length).toBeGreaterThan(0);

      const stop = answerComplianceKeyword('STOP', 'help@example.com')!;
      await recordInbound(ds, {
        from: { userId },
        content: 'STOP',
        consent: { type: stop.type, keyword: stop.keyword, reply: stop.reply },
        idleTimeoutMs: DEFAULT_CONVERSATION_IDLE_TIMEOUT_MS,
      });
      const sends = await sendsOf(userId);
      expect(sends.every((s) => s.status === 'cancelled' && s.skipReason === 'opted_out')).toBe(true);
      expect(await sender.sendDue(new Date('2027-03-21T19:00:00Z'))).toEqual({
        sent: 0,
        skipped: 0,
        cancelled: 0,
        later: 0,
      });
      expect(await ds.getRepository(Message).countBy({ kind: 'calendar' })).toBe(0);
      const [user] = await ds.query<Array<{ tips_status: string }>>(
        `SELECT tips_status FROM users WHERE id = $1`,
        [userId],
      );
      expect(user!.tips_status).toBe('unsubscribed');
    });

    it('re-checks opt-out and tips status on the locked row when sending', async () => {
      const stopped = await subscriber('97201', ['tomatoes']);
      const tipsOff = await subscriber('97201', ['tomatoes']);
      await planner.plan(new Date('2027-03-06T18:00:00Z'));
      // Changed without a consent event (as an import or a console action might).
      await ds.query(`UPDATE users SET opted_out = true WHERE id = $1`, [stopped]);
      await ds.query(`UPDATE users SET tips_status = 'unsubscribed' WHERE id = $1`, [tipsOff]);
      await dueAt(new Date('2027-03-13T19:00:00Z'));
      expect(await sender.sendDue(new Date('2027-03-13T20:00:00Z'))).toMatchObject({ sent: 0, cancelled: 2 });
      expect((await sendsOf(stopped))[0]).toMatchObject({ status: 'cancelled', skipReason: 'opted_out' });
      expect((await sendsOf(tipsOff))[0]).toMatchObject({ status: 'cancelled', skipReason: 'tips_off' });
    });
  });

  describe('the monthly cap', () => {
    it('schedules at most GARDEN_TIPS_PER_MONTH tips in a local month and records the rest as capped', async () => {
      const capped = new TipsPlannerService(ds, { ...h.service.config, gardenTipsPerMonth: 2 });
      // Portland's defaults in Feb 12-25: kale hardened off Feb 18, set out Feb 25, lettuce sown Feb 25.
      const userId = await subscriber('97201');
      expect(await capped.plan(new Date('2027-02-12T18:00:00Z'))).toMatchObject({ scheduled: 2, capped: 1 });
      const sends = await sendsOf(userId);
      expect(sends.map((s) => [s.taskKey, s.status, s.skipReason])).toEqual([
        ['kale:harden-off:2027', 'scheduled', null],
        ['kale:transplant:2027', 'scheduled', null],
        ['lettuce:sow:2027', 'skipped', 'monthly_cap'],
      ]);
      // Later in the month nothing more fits; in March the count starts again (tomatoes indoors, Mar 13).
      expect(await capped.plan(new Date('2027-02-20T18:00:00Z'))).toMatchObject({ scheduled: 0 });
      const march = await capped.plan(new Date('2027-03-08T18:00:00Z'));
      expect(march.scheduled).toBe(1);
    });
  });

  describe('frost and heat alerts from the NWS forecast', () => {
    // Apr 20 2027, 8:00 in Portland: in its tender season (last frost about Mar 25).
    const NOW = new Date('2027-04-20T15:00:00Z');

    it('turns a freeze forecast into one alert per grid and one text per subscriber there', async () => {
      clock = NOW;
      const a = await subscriber('97201');
      const b = await subscriber('97201');
      // Minneapolis' last frost is in May: not yet in season, so not even asked about.
      const early = await subscriber('55401');
      nws.forecast({ at: new Date('2027-04-21T02:00:00Z'), temperatureF: 29 });

      expect(await weather.check(NOW)).toEqual({ grids: 1, failed: 0, alerts: 1, texts: 2 });
      const alerts = await ds.getRepository(WeatherAlert).find();
      expect(alerts).toHaveLength(1);
      expect(alerts[0]).toMatchObject({ kind: 'freeze', lowF: 29, eventDate: '2027-04-20' });
      expect(alerts[0]!.gridKey).toMatch(/^FAK\/\d+\/\d+$/);
      for (const userId of [a, b]) {
        const [send] = await sendsOf(userId);
        expect(send).toMatchObject({
          kind: 'frost_alert',
          taskKey: `alert:${alerts[0]!.id}`,
          status: 'scheduled',
        });
        expect(send!.body).toMatch(
          /^Sprout: Frost alert: the National Weather Service forecasts a low of 29F tonight\./,
        );
        // 8:00 in Portland: held for 9:00.
        expect(send!.scheduledFor.toISOString()).toBe('2027-04-20T16:00:00.000Z');
      }
      expect(await sendsOf(early)).toHaveLength(0);
      // Every request named Sprout, as NWS asks.
      expect(nws.requests.length).toBeGreaterThan(0);
      expect(nws.requests.every((r) => /Sprout/.test(r.userAgent ?? ''))).toBe(true);

      // The next check sees the same freeze: no second alert, no second text.
      expect(await weather.check(new Date(NOW.getTime() + 3 * HOUR))).toEqual({
        grids: 1,
        failed: 0,
        alerts: 0,
        texts: 0,
      });
      expect(await sender.sendDue(new Date('2027-04-20T16:30:00Z'))).toMatchObject({ sent: 2 });
    });

    it('raises a heat alert at a zone-appropriate threshold (Phoenix: 100F, not 97F)', async () => {
      clock = new Date('2027-06-10T15:00:00Z');
      const userId = await subscriber('85004');
      nws.forecast({ at: new Date('2027-06-11T10:00:00Z'), temperatureF: 97 });
      expect(await weather.check(clock)).toMatchObject({ alerts: 0 });
      nws.reset();
      nws.forecast({ at: new Date('2027-06-11T10:00:00Z'), temperatureF: 108 });
      expect(await weather.check(clock)).toMatchObject({ alerts: 1, texts: 1 });
      const [send] = await sendsOf(userId);
      expect(send).toMatchObject({ kind: 'heat_alert' });
      expect(send!.body).toContain('high of 108F');
    });

    it('lives through an NWS outage: logged, nothing raised, nothing else blocked, caught up next run', async () => {
      clock = NOW;
      const userId = await subscriber('97201', ['tomatoes']);
      nws.forecast({ at: new Date('2027-04-21T02:00:00Z'), temperatureF: 30 });
      nws.fail(503);
      expect(await weather.check(NOW)).toEqual({ grids: 0, failed: 1, alerts: 0, texts: 0 });
      expect(await ds.getRepository(WeatherAlert).count()).toBe(0);
      // Tips are planned and sent meanwhile.
      await ds.query(
        `INSERT INTO calendar_sends (user_id, kind, task_key, scheduled_for, body) VALUES ($1, 'tip', 'test:outage:2027', $2, 'Sprout: a tip')`,
        [userId, NOW],
      );
      expect(await sender.sendDue(new Date('2027-04-20T17:00:00Z'))).toMatchObject({ sent: 1 });

      nws.recover();
      expect(await weather.check(new Date(NOW.getTime() + 3 * HOUR))).toMatchObject({
        failed: 0,
        alerts: 1,
        texts: 1,
      });
    });

    it('gives up on a hung NWS after NWS_TIMEOUT_MS instead of waiting on it', async () => {
      clock = NOW;
      await subscriber('97201');
      nws.stall(10_000);
      const started = Date.now();
      expect(await weather.check(NOW)).toMatchObject({ failed: 1, alerts: 0 });
      expect(Date.now() - started).toBeLessThan(6_000);
    });
  });
});
