// One phone flooding Sprout with signed texts, across the services as in production: the webhook
// (sms-gateway) stores every text, the pipeline (ai-responder, default limits: 5 replies a minute)
// answers the limit's worth and one notice, STOP and HELP are still honoured, another sender is
// answered, every sent message records its SMS cost, and the console shows it all.
import * as fs from 'node:fs';
import { AwaitingReply, Message, User } from '@sprout/domain';
import { checkA11y } from '@sprout/testing/browser';
import { In } from 'typeorm';
import { useBrowserStack } from '../src/fixtures';
import { eventually } from '../src/helpers';

const ATTACKER = '+15415550171';
const NEIGHBOUR = '+15415550172';
const SMS_PRICE = 0.0083;
const SHOTS = '/tmp/shots';

const { stack, page, errors, openPage } = useBrowserStack({
  responder: true,
  // Unpaced sending: the test is about the limits, not the carriers' rate.
  smsGateway: { smsLongCodeRate: 1_000 },
  setup: async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
  },
  // The console's tests share one page, opened once the flood is over.
  pagePerTest: false,
});

const text = (from: string, body: string) => stack.sms.text(from, body);
const userOf = (phone: string) =>
  stack.db.dataSource.getRepository(User).findOneByOrFail({ phoneNumber: phone });
const outbound = async (phone: string) =>
  stack.db.dataSource.getRepository(Message).find({
    where: { userId: (await userOf(phone)).id, direction: 'outbound' },
    order: { createdAt: 'ASC' },
  });
const sentTo = (phone: string) => stack.sms.twilio.sent.filter((m) => m.to === phone);
/** Every text of `phone` settled (answered or deliberately not) and every message it got sent. */
const settled = async (phone: string, sends: number) =>
  eventually(
    async () => {
      const user = await userOf(phone);
      const texts = await stack.db.dataSource
        .getRepository(Message)
        .find({ where: { userId: user.id, direction: 'inbound' }, select: { id: true } });
      const owed = await stack.db.dataSource
        .getRepository(AwaitingReply)
        .countBy({ messageId: In(texts.map((t) => t.id)) });
      return owed === 0 && sentTo(phone).length >= sends ? true : undefined;
    },
    `${phone}'s texts to be settled and ${sends} messages sent`,
    60_000,
  );

describe('a phone texting far faster than a person', () => {
  it('gets 5 replies and one notice for 60 texts; another sender is answered meanwhile', async () => {
    const questions = [
      'When do I plant garlic?',
      'How deep should I plant tulip bulbs?',
      'Is it too late for peas?',
    ];
    for (let i = 0; i < 60; i += 1) {
      await text(ATTACKER, `${questions[i % questions.length] ?? ''} (${i + 1})`);
      if (i === 30) await text(NEIGHBOUR, 'What should I plant in October in 97201?');
    }
    await settled(ATTACKER, 6);
    await settled(NEIGHBOUR, 1);

    const sent = await outbound(ATTACKER);
    expect(sent.filter((m) => m.kind === 'system').map((m) => m.content)).toEqual([
      expect.stringMatching(/^You've sent a lot of messages.*I'll answer again in about/),
    ]);
    expect(sent.filter((m) => m.kind !== 'system')).toHaveLength(5);
    expect(sentTo(ATTACKER)).toHaveLength(6);
    expect(
      await stack.db.dataSource
        .getRepository(Message)
        .countBy({ direction: 'inbound', userId: (await userOf(ATTACKER)).id }),
    ).toBe(60);
    expect(sentTo(NEIGHBOUR)).toHaveLength(1);

    // Each message Twilio accepted recorded its segments and cost; the user's total is their sum.
    const accepted = await eventually(async () => {
      const rows = await outbound(ATTACKER);
      return rows.every((m) => m.smsCost !== null) ? rows : undefined;
    }, 'every sent message to record its cost');
    for (const m of accepted) expect(m.smsCost).toBeCloseTo((m.segments ?? 0) * SMS_PRICE, 6);
    const total = accepted.reduce((sum, m) => sum + (m.smsCost ?? 0), 0);
    expect((await userOf(ATTACKER)).totalSmsCost).toBeCloseTo(total, 6);
  }, 180_000);

  it('still answers HELP and honours STOP once limited', async () => {
    await text(ATTACKER, 'HELP');
    await settled(ATTACKER, 7);
    expect(sentTo(ATTACKER).at(-1)?.body).toMatch(/help/i);

    await text(ATTACKER, 'STOP');
    await settled(ATTACKER, 8);
    expect((await userOf(ATTACKER)).optedOut).toBe(true);
    expect(sentTo(ATTACKER).at(-1)?.body).toMatch(/unsubscribed/);
    const kinds = (await outbound(ATTACKER)).map((m) => m.kind);
    expect(kinds.filter((k) => k === 'consent')).toHaveLength(2);
  }, 120_000);
});

describe('the console', () => {
  beforeAll(() => openPage());

  it('lists the limited phone on System Health', async () => {
    await page.goto('/admin/system-health');
    const row = page.getByTestId('rate-limited-sender');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    const cells = await row.first().locator('td').allInnerTexts();
    expect(cells[0]).toContain('(541) 555-0171');
    expect(cells[0]).toContain('Rate limited');
    expect(cells[1]).toBe('over 5 replies per minute');
    expect(cells[4]).toBe('55');
    expect(await checkA11y(page)).toEqual([]);
    await page.getByTestId('rate-limited-senders').screenshot({ path: `${SHOTS}/rate-limited-senders.png` });
  });

  it("shows the user's limit and SMS cost in their panel", async () => {
    await page.goto(`/admin/users?search=${encodeURIComponent(ATTACKER)}`);
    const detail = page.getByTestId('user-detail');
    const limit = detail.getByTestId('rate-limit');
    await limit.waitFor();
    expect(await limit.innerText()).toMatch(
      /Rate limited\s+since .+ \(over 5 replies per minute\), answered again .+ · 55 texts unanswered/,
    );
    await page.getByRole('tab', { name: 'Analytics' }).click();
    const user = await userOf(ATTACKER);
    const metrics = await page.getByTestId('engagement-metrics').innerText();
    expect(metrics).toContain(`AI $0.0000 · SMS $${user.totalSmsCost.toFixed(4)}`);
    const today = await page.getByTestId('activity-row').first().locator('td').allInnerTexts();
    expect(today[3]).toBe(`$${user.totalSmsCost.toFixed(4)}`);

    // The conversation: each reply with what sending it cost.
    await page.getByRole('tab', { name: 'Conversations' }).click();
    const thread = detail.getByTestId('message-thread');
    await thread.getByTestId('message').first().waitFor();
    const usage = await thread.locator('[data-direction="outbound"]').allInnerTexts();
    expect(usage.some((u) => /SMS \$0\.0(083|166|249)/.test(u))).toBe(true);
    await detail.screenshot({ path: `${SHOTS}/user-rate-limited.png` });
    expect(errors).toEqual([]);
  });

  it("adds today's SMS cost beside the dashboard's AI cost", async () => {
    await page.goto('/admin/dashboard');
    const sms = page.getByTestId('metric-todays-sms-cost');
    await sms.waitFor();
    const spent = await stack.db.dataSource.query<Array<{ total: string }>>(
      `SELECT sum(sms_cost) AS total FROM messages`,
    );
    expect(await page.getByTestId('metric-todays-cost-detail').innerText()).toBe(
      `API usage · SMS $${Number(spent[0]?.total ?? 0).toFixed(2)}`,
    );
    await page.getByTestId('metric-todays-cost').screenshot({ path: `${SHOTS}/todays-cost.png` });
  });
});
