// The garden calendar end to end: a gardener in 97201 texts TIPS to sms-gateway (signed webhook,
// the real twilio SDK against the fake Twilio) and gets a confirmation; on a fixed clock
// survey-scheduler plans the right tips for the right days and sends them in Portland's daytime
// through sms-gateway; the fake NWS forecasts a freeze and a frost alert goes out; after TIPS OFF
// or STOP nothing more does.
import { CalendarSend, User } from '@sprout/domain';
import { localDateOf, localMinutesOf } from '@sprout/gardening';
import { JobQueues, type ServiceApp } from '@sprout/platform';
import { FakeNws } from '@sprout/testing';
import { CalendarSenderService } from '../../services/survey-scheduler/src/calendar/calendar-sender.service';
import { CALENDAR_SCHEDULERS } from '../../services/survey-scheduler/src/calendar/calendar.processor';
import { TipsPlannerService } from '../../services/survey-scheduler/src/calendar/tips-planner.service';
import { WeatherWatchService } from '../../services/survey-scheduler/src/calendar/weather-watch.service';
import { useServices } from '../src/fixtures';
import { eventually } from '../src/helpers';
import type { SmsGateway } from '../src/services';

const GARDENER = '+15035550150';
const NEIGHBOUR = '+15035550151';
const PORTLAND = 'America/Los_Angeles';

describe('garden calendar: TIPS to a frost alert', () => {
  const services = useServices();
  let sms: SmsGateway;
  let nws: FakeNws;
  let scheduler: ServiceApp;
  let clock = new Date('2027-01-10T18:00:00Z');

  beforeAll(async () => {
    nws = await services.add(FakeNws.start({ now: () => clock }));
    sms = await services.smsGateway({ smsLongCodeRate: 10_000 });
    scheduler = await services.surveyScheduler({ nwsBaseUrl: nws.url });
    // The story runs on its own clock: the real-time schedules are taken away.
    const queues = scheduler.app.get(JobQueues);
    for (const [queue, id] of [
      ['calendar.plan', CALENDAR_SCHEDULERS.plan.id],
      ['calendar.send', CALENDAR_SCHEDULERS.send.id],
      ['calendar.weather', CALENDAR_SCHEDULERS.weather.id],
    ] as const) {
      await queues.queue(queue).removeJobScheduler(id);
      await queues.queue(queue).drain(true);
    }
  });

  const text = (from: string, body: string) => sms.text(from, body);
  const sentTo = (phone: string) => sms.twilio.sent.filter((m) => m.to === phone).map((m) => m.body);
  /** Waits until the fake Twilio has `n` texts for the number. */
  const texts = (phone: string, n: number) =>
    eventually(async () => (sentTo(phone).length >= n ? sentTo(phone) : undefined), `${n} texts to ${phone}`);
  const userOf = (phone: string) =>
    services.db.dataSource.getRepository(User).findOneByOrFail({ phoneNumber: phone });
  const plan = (now: Date) => scheduler.app.get(TipsPlannerService).plan(now);
  const send = (now: Date) => scheduler.app.get(CalendarSenderService).sendDue(now);

  it('a gardener in 97201 who texts TIPS gets a confirmation, the right tips on the right days, a frost alert, then nothing after TIPS OFF', async () => {
    // A gardener Sprout knows from an earlier conversation about tomatoes (ZIP learned then).
    await text(GARDENER, 'When should I start tomatoes?');
    const known = await userOf(GARDENER);
    await services.db.dataSource.query(`UPDATE users SET zip_code = '97201', state = 'OR' WHERE id = $1`, [
      known.id,
    ]);

    await text(GARDENER, 'TIPS');
    const [confirmation] = await texts(GARDENER, 1);
    expect(confirmation).toBe(
      "Sprout: You're subscribed to Sprout garden tips for 97201: up to 4 a month, timed to your frost dates, " +
        'plus frost and heat alerts. Msg & data rates may apply. Reply TIPS OFF to stop tips, STOP to end all texts.',
    );
    const [event] = await services.db.dataSource.query<Array<{ type: string; keyword: string }>>(
      `SELECT type, keyword FROM consent_events WHERE user_id = $1`,
      [known.id],
    );
    expect(event).toEqual({ type: 'tips_opt_in', keyword: 'TIPS' });
    expect((await userOf(GARDENER)).tipsStatus).toBe('subscribed');

    // Mar 6: the next 14 days hold one task for tomatoes: start seeds indoors on Mar 13, 9 weeks
    // before they go out in mid-May (Portland's cool nights outlast its last frost, about Mar 25).
    clock = new Date('2027-03-06T18:00:00Z');
    expect(await plan(clock)).toMatchObject({ subscribers: 1, scheduled: 1, capped: 0 });
    const [tip] = await services.db.dataSource.getRepository(CalendarSend).findBy({ userId: known.id });
    expect(tip).toMatchObject({ kind: 'tip', taskKey: 'tomatoes:start-indoors:2027', status: 'scheduled' });
    expect(localDateOf(tip!.scheduledFor, PORTLAND)).toBe('2027-03-13');
    const minute = localMinutesOf(tip!.scheduledFor, PORTLAND);
    expect(minute >= 10 * 60 && minute < 13 * 60).toBe(true);

    // The day before, and that morning before its minute, nothing goes.
    expect(await send(new Date('2027-03-12T20:00:00Z'))).toMatchObject({ sent: 0 });
    expect(await send(new Date(tip!.scheduledFor.getTime() - 60_000))).toMatchObject({ sent: 0 });
    expect(await send(new Date(tip!.scheduledFor.getTime() + 60_000))).toMatchObject({ sent: 1 });
    const afterTip = await texts(GARDENER, 2);
    expect(afterTip[1]).toMatch(
      /^Sprout: Time to start tomato seeds indoors in Portland, 9 weeks before planting out/,
    );
    expect(afterTip[1]).toMatch(/\nReply TIPS OFF to stop tips$/);
    const sentTip = await services.db.dataSource.getRepository(CalendarSend).findOneByOrFail({ id: tip!.id });
    expect(sentTip.status).toBe('sent');
    expect(sentTip.messageId).not.toBeNull();

    // Apr 20, 8:00 in Portland (tender plants are out): the NWS forecasts 29F tonight.
    clock = new Date('2027-04-20T15:00:00Z');
    nws.forecast({ at: new Date('2027-04-21T03:00:00Z'), temperatureF: 29 });
    expect(await scheduler.app.get(WeatherWatchService).check(clock)).toMatchObject({ alerts: 1, texts: 1 });
    // Held for 9:00, then sent once.
    expect(await send(clock)).toMatchObject({ sent: 0 });
    expect(await send(new Date('2027-04-20T16:05:00Z'))).toMatchObject({ sent: 1 });
    const afterAlert = await texts(GARDENER, 3);
    expect(afterAlert[2]).toMatch(
      /^Sprout: Frost alert: the National Weather Service forecasts a low of 29F tonight/,
    );
    expect(
      await scheduler.app.get(WeatherWatchService).check(new Date('2027-04-20T18:00:00Z')),
    ).toMatchObject({
      alerts: 0,
      texts: 0,
    });

    // TIPS OFF: confirmed, and what was planned is cancelled; nothing more is planned or sent.
    expect(await plan(new Date('2027-04-21T18:00:00Z'))).toMatchObject({ scheduled: expect.any(Number) });
    await text(GARDENER, 'TIPS OFF');
    const afterOff = await texts(GARDENER, 4);
    expect(afterOff[3]).toContain('Garden tips are off');
    expect((await userOf(GARDENER)).tipsStatus).toBe('unsubscribed');
    const open = await services.db.dataSource
      .getRepository(CalendarSend)
      .countBy({ userId: known.id, status: 'scheduled' });
    expect(open).toBe(0);
    expect(await plan(new Date('2027-05-01T18:00:00Z'))).toMatchObject({ subscribers: 0, scheduled: 0 });
    nws.forecast({ at: new Date('2027-05-02T03:00:00Z'), temperatureF: 30 });
    clock = new Date('2027-05-01T18:00:00Z');
    expect(await scheduler.app.get(WeatherWatchService).check(clock)).toMatchObject({ texts: 0 });
    expect(await send(new Date('2027-05-10T18:00:00Z'))).toMatchObject({ sent: 0 });
    // TIPS OFF left conversations on: the gardener is not opted out.
    expect((await userOf(GARDENER)).optedOut).toBe(false);
    expect(sentTo(GARDENER)).toHaveLength(4);
  });

  it('sends nothing after STOP, and TIPS from a STOPped number does not subscribe it', async () => {
    await text(NEIGHBOUR, 'TIPS');
    await texts(NEIGHBOUR, 1);
    const neighbour = await userOf(NEIGHBOUR);
    await services.db.dataSource.query(`UPDATE users SET zip_code = '97201' WHERE id = $1`, [neighbour.id]);
    expect(await plan(new Date('2027-06-01T18:00:00Z'))).toMatchObject({ subscribers: 1 });

    await text(NEIGHBOUR, 'STOP');
    await texts(NEIGHBOUR, 2);
    expect(sentTo(NEIGHBOUR)[1]).toContain("You're unsubscribed");
    expect(
      await services.db.dataSource
        .getRepository(CalendarSend)
        .countBy({ userId: neighbour.id, status: 'scheduled' }),
    ).toBe(0);

    await text(NEIGHBOUR, 'TIPS');
    const after = await userOf(NEIGHBOUR);
    expect(after).toMatchObject({ optedOut: true, tipsStatus: 'unsubscribed' });
    expect(await plan(new Date('2027-06-10T18:00:00Z'))).toMatchObject({ subscribers: 0, scheduled: 0 });
    expect(await send(new Date('2027-06-20T18:00:00Z'))).toMatchObject({ sent: 0 });
    // Give a wrongly sent text time to arrive: none does.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(sentTo(NEIGHBOUR)).toHaveLength(2);
  });
});
