// What sending costs: each message Twilio accepts records its segments and list price once (on the
// message, its user and the day's ledger), and the optional daily SMS spending limit stops replies
// (never keyword confirmations) once reached, announcing 80% and 100% once.
import { Logger } from '@nestjs/common';
import { Message, User, smsSpentSince, spendDay } from '@sprout/domain';
import { Metrics, loadConfig } from '@sprout/platform';
import { smsGatewayConfig } from '../src/config';
import { OutboundService } from '../src/outbound/outbound.service';
import { SMS_SPEND_LIMIT_ERROR_CODE } from '../src/outbound/sms-spending';
import { type GatewayHarness, insertQueuedReply, nextPhone, startGateway } from './harness';

/** 200 GSM-7 characters: two segments. */
const TWO_SEGMENTS =
  `${'Water deeply at the base of the plant in the morning. '.repeat(3)}Mulch well.`.padEnd(200, '.');

describe('SMS cost', () => {
  let h: GatewayHarness;
  let warnings: string[];
  beforeAll(async () => {
    h = await startGateway({ callbackDelayMs: 5 });
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => {
    h.twilio.reset();
    warnings = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => {
      warnings.push(String(message));
    });
  });
  afterEach(() => jest.restoreAllMocks());

  const send = (id: string) => h.gateway.app.get(OutboundService).send(id, true);
  const message = (id: string) => h.db.dataSource.getRepository(Message).findOneByOrFail({ id });
  const user = (id: string) => h.db.dataSource.getRepository(User).findOneByOrFail({ id });
  const today = () => spendDay(new Date(), 'UTC').start;
  const crossed = async (threshold: string): Promise<number> => {
    const metric = await h.gateway.app
      .get(Metrics)
      .registry.getSingleMetric('sprout_sms_spend_threshold_crossed_total')
      ?.get();
    return metric?.values.find((v) => v.labels.threshold === threshold)?.value ?? 0;
  };

  it('records the segments and cost of a message Twilio accepts, once', async () => {
    const before = await smsSpentSince(h.db.dataSource, today());
    const reply = await insertQueuedReply(h.db.dataSource, {
      phoneNumber: nextPhone(),
      content: TWO_SEGMENTS,
    });
    expect(await send(reply.id)).toBe('sent');
    const sent = await message(reply.id);
    expect(sent.segments).toBe(2);
    expect(sent.smsCost).toBeCloseTo(0.0166, 6);
    expect((await user(reply.userId)).totalSmsCost).toBeCloseTo(0.0166, 6);
    // A repeated job finds it sent and records nothing more.
    expect(await send(reply.id)).toBe('already-sent');
    expect((await user(reply.userId)).totalSmsCost).toBeCloseTo(0.0166, 6);
    expect((await smsSpentSince(h.db.dataSource, today())) - before).toBeCloseTo(0.0166, 6);
  });

  it('prices a message with media as one MMS', async () => {
    const reply = await insertQueuedReply(h.db.dataSource, {
      phoneNumber: nextPhone(),
      content: TWO_SEGMENTS,
    });
    await h.db.dataSource
      .getRepository(Message)
      .update({ id: reply.id }, { media: [{ url: 'https://example.com/a.jpg', contentType: 'image/jpeg' }] });
    expect(await send(reply.id)).toBe('sent');
    expect((await message(reply.id)).smsCost).toBeCloseTo(0.022, 6);
  });

  it("records no cost for a test user's message (never sent)", async () => {
    const reply = await insertQueuedReply(h.db.dataSource, { phoneNumber: nextPhone(), isTestUser: true });
    expect(await send(reply.id)).toBe('test-user');
    expect((await message(reply.id)).smsCost).toBeNull();
    expect((await user(reply.userId)).totalSmsCost).toBe(0);
  });

  it('reads the prices and the optional cap as settings', () => {
    expect(loadConfig(smsGatewayConfig, {})).toMatchObject({
      smsPricePerSegment: 0.0083,
      mmsPricePerMessage: 0.022,
      smsDailySpendLimit: undefined,
    });
    expect(loadConfig(smsGatewayConfig, { SMS_DAILY_SPEND_LIMIT: '25' }).smsDailySpendLimit).toBe(25);
    expect(loadConfig(smsGatewayConfig, { SMS_DAILY_SPEND_LIMIT: '' }).smsDailySpendLimit).toBeUndefined();
    expect(() => loadConfig(smsGatewayConfig, { SMS_DAILY_SPEND_LIMIT: '0' })).toThrow(
      /SMS_DAILY_SPEND_LIMIT must be a number of dollars above 0, or unset for no cap/,
    );
    expect(() => loadConfig(smsGatewayConfig, { SMS_PRICE_PER_SEGMENT: 'cheap' })).toThrow(
      /SMS_PRICE_PER_SEGMENT must be a number/,
    );
  });

  describe('with SMS_DAILY_SPEND_LIMIT', () => {
    let capped: GatewayHarness;
    beforeAll(async () => {
      // One-segment replies cost $0.0083: the third passes $0.02.
      capped = await startGateway({ callbackDelayMs: 5 }, { smsDailySpendLimit: 0.02 });
    });
    afterAll(async () => {
      await capped?.close();
    });

    it('announces 80% and 100% once, then sends keyword confirmations only', async () => {
      const outbound = capped.gateway.app.get(OutboundService);
      const reply = async (kind: Message['kind'] = 'reply') => {
        const queued = await insertQueuedReply(capped.db.dataSource, { phoneNumber: nextPhone() });
        if (kind !== 'reply')
          await capped.db.dataSource.getRepository(Message).update({ id: queued.id }, { kind });
        return { queued, outcome: await outbound.send(queued.id, true) };
      };
      const counter = async (threshold: string) => {
        const metric = await capped.gateway.app
          .get(Metrics)
          .registry.getSingleMetric('sprout_sms_spend_threshold_crossed_total')
          ?.get();
        return metric?.values.find((v) => v.labels.threshold === threshold)?.value ?? 0;
      };

      expect((await reply()).outcome).toBe('sent');
      expect(await counter('80')).toBe(0);
      expect((await reply()).outcome).toBe('sent');
      expect(await counter('80')).toBe(1);
      expect((await reply()).outcome).toBe('sent');
      expect(await counter('100')).toBe(1);
      expect(warnings.filter((w) => w.includes('Daily SMS'))).toHaveLength(2);

      // Reached: a reply is not sent, and says why.
      const refused = await reply();
      expect(refused.outcome).toBe('failed');
      const failed = await capped.db.dataSource
        .getRepository(Message)
        .findOneByOrFail({ id: refused.queued.id });
      expect(failed).toMatchObject({
        status: 'failed',
        errorCode: SMS_SPEND_LIMIT_ERROR_CODE,
        providerSid: null,
      });
      expect(failed.errorMessage).toMatch(
        /SMS spending limit \(\$0\.02, SMS_DAILY_SPEND_LIMIT\) was reached/,
      );
      expect(capped.twilio.sent).toHaveLength(3);

      // Keyword confirmations (STOP, START, HELP) still go out: carriers require them.
      expect((await reply('consent')).outcome).toBe('sent');
      expect(capped.twilio.sent).toHaveLength(4);
      // Each threshold was announced once, however often it was met.
      expect(await counter('80')).toBe(1);
      expect(await counter('100')).toBe(1);
      expect(await crossed('100')).toBe(0);
    });
  });
});
