// Survey links inside conversations: who gets a campaign's link in
// which reply, exactly once, and never while opted out, paused or after the end.
import { Message, SurveyCampaign, SurveyDelivery, replyIdFor } from '@sprout/domain';
import { analyzeSms, answerComplianceKeyword } from '@sprout/sms';
import { PipelineService } from '../src/pipeline/pipeline.service';
import { type Harness, type Responder, exchange, newPhone, startHarness, storeInbound } from './harness';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

describe('survey links in replies', () => {
  let h: Harness;
  let second: Responder;

  beforeAll(async () => {
    h = await startHarness();
    second = await h.startResponder();
  });
  afterAll(async () => {
    await h?.close();
  });

  const ds = () => h.db.dataSource;
  const pipeline = (responder: Responder = h.responder) => responder.app.get(PipelineService);
  const deliveries = () => ds().getRepository(SurveyDelivery);

  const addCampaign = (values: Partial<SurveyCampaign> = {}): Promise<SurveyCampaign> =>
    ds()
      .getRepository(SurveyCampaign)
      .save({
        name: 'Spring check-in',
        surveyUrl: 'https://forms.example.com/spring',
        status: 'live' as const,
        startDate: new Date(Date.now() - DAY),
        ...values,
      });

  /** A user who texted before the campaign started, with a pending delivery (as the scheduler targets). */
  const existingUser = async (campaign: SurveyCampaign): Promise<{ phone: string; userId: string }> => {
    const phone = newPhone();
    const first = await storeInbound(h.db, 'Hello Sprout', {
      phone,
      at: new Date(campaign.startDate.getTime() - DAY),
    });
    await ds().query(`UPDATE "users" SET "created_at" = $2 WHERE "id" = $1`, [
      first.userId,
      new Date(campaign.startDate.getTime() - 2 * DAY),
    ]);
    await deliveries().save({ campaignId: campaign.id, userId: first.userId });
    return { phone, userId: first.userId };
  };

  /** deliveredCount as the console reads it: the column plus the replies' shard rows. */
  const deliveredCount = async (campaignId: string): Promise<number> => {
    const [row] = await ds().query<Array<{ n: number }>>(
      `SELECT (c."delivered_count" + coalesce((SELECT sum(s."delivered") FROM "survey_campaign_delivered_shards" s
                                                 WHERE s."campaign_id" = c."id"), 0))::int AS n
         FROM "survey_campaigns" c WHERE c."id" = $1`,
      [campaignId],
    );
    return row?.n ?? -1;
  };

  const replyTo = async (inbound: Message, responder?: Responder): Promise<Message | null> => {
    await pipeline(responder).reply(inbound.id);
    return ds()
      .getRepository(Message)
      .findOneBy({ id: replyIdFor(inbound.id) });
  };

  it('gives an existing user the link in their next reply, once, and marks and counts the delivery', async () => {
    const campaign = await addCampaign();
    const { phone, userId } = await existingUser(campaign);

    const { reply } = await exchange(h, 'How do I keep slugs off my lettuce?', { phone });

    expect(reply.content).toContain('Quick survey: https://forms.example.com/spring');
    expect(reply.segments).toBeLessThanOrEqual(3);
    const delivery = await deliveries().findOneByOrFail({ campaignId: campaign.id, userId });
    expect(delivery).toMatchObject({ conversationId: reply.conversationId, messageId: reply.id });
    expect(delivery.deliveredAt).toEqual(reply.createdAt);
    expect(await deliveredCount(campaign.id)).toBe(1);

    const next = await exchange(h, 'And what about snails on my hostas?', { phone });
    expect(next.reply.content).not.toContain('Quick survey');
    const later = await exchange(h, 'When do I plant garlic?', {
      phone,
      at: new Date(Date.now() + 7 * HOUR),
    });
    expect(later.reply.content).not.toContain('Quick survey');
    expect(await deliveredCount(campaign.id)).toBe(1);
  });

  it('gives a new user the link in their second conversation, not their first, once', async () => {
    const campaign = await addCampaign({ surveyUrl: 'https://forms.example.com/new' });
    const phone = newPhone();
    const first = await storeInbound(h.db, 'How do I start a compost pile?', { phone });
    await deliveries().save({ campaignId: campaign.id, userId: first.userId });

    expect((await replyTo(first))?.content).not.toContain('Quick survey');
    const again = await exchange(h, 'Is my compost too wet?', { phone });
    expect(again.conversation.id).toBe(first.conversationId);
    expect(again.reply.content).not.toContain('Quick survey');
    expect((await deliveries().findOneByOrFail({ campaignId: campaign.id })).conversationId).toBeNull();

    // Seven hours later: a new conversation, the second.
    const secondVisit = await exchange(h, 'How often should I turn it?', {
      phone,
      at: new Date(Date.now() + 7 * HOUR),
    });
    expect(secondVisit.conversation.id).not.toBe(first.conversationId);
    expect(secondVisit.reply.content).toContain('Quick survey: https://forms.example.com/new');
    expect((await deliveries().findOneByOrFail({ campaignId: campaign.id })).conversationId).toBe(
      secondVisit.conversation.id,
    );
    const more = await exchange(h, 'Can I add eggshells?', {
      phone,
      at: new Date(Date.now() + 7 * HOUR + 1000),
    });
    expect(more.reply.content).not.toContain('Quick survey');
    expect(await deliveredCount(campaign.id)).toBe(1);
  });

  it('never gives the link to an opted-out user, and gives it after they opt back in', async () => {
    const campaign = await addCampaign({ surveyUrl: 'https://forms.example.com/optout' });
    const { phone, userId } = await existingUser(campaign);
    await storeInbound(h.db, 'STOP', {
      phone,
      consent: answerComplianceKeyword('STOP', 'help@sprout.example')!,
    });
    const question = await storeInbound(h.db, 'How deep do I plant tulip bulbs?', { phone });

    expect(await pipeline().reply(question.id)).toEqual({ outcome: 'opted-out', replyMessageId: null });
    const delivery = await deliveries().findOneByOrFail({ campaignId: campaign.id, userId });
    expect(delivery.deliveredAt).toBeNull();
    const sent = await ds().getRepository(Message).findBy({ userId, direction: 'outbound' });
    expect(sent.some((m) => m.content.includes('Quick survey'))).toBe(false);

    await storeInbound(h.db, 'START', {
      phone,
      consent: answerComplianceKeyword('START', 'help@sprout.example')!,
    });
    const { reply } = await exchange(h, 'How deep do I plant tulip bulbs?', { phone });
    expect(reply.content).toContain('Quick survey: https://forms.example.com/optout');
  });

  it.each([
    ['paused', { status: 'paused' as const }],
    ['completed', { status: 'completed' as const }],
    ['scheduled', { status: 'scheduled' as const }],
    ['past its end date (not yet completed by the scheduler)', { endDate: new Date(Date.now() - 1000) }],
  ])('gives no link while the campaign is %s', async (_what, values) => {
    const campaign = await addCampaign({ surveyUrl: 'https://forms.example.com/stopped', ...values });
    const { phone, userId } = await existingUser(campaign);
    const { reply } = await exchange(h, 'How do I prune roses?', { phone });
    expect(reply.content).not.toContain('Quick survey');
    expect((await deliveries().findOneByOrFail({ campaignId: campaign.id, userId })).deliveredAt).toBeNull();
  });

  it('stops at once on pause and delivers after the resume', async () => {
    const campaign = await addCampaign({ surveyUrl: 'https://forms.example.com/pause' });
    const { phone } = await existingUser(campaign);
    await ds().getRepository(SurveyCampaign).update({ id: campaign.id }, { status: 'paused' });
    expect((await exchange(h, 'How do I prune roses?', { phone })).reply.content).not.toContain(
      'Quick survey',
    );
    await ds().getRepository(SurveyCampaign).update({ id: campaign.id }, { status: 'live' });
    expect((await exchange(h, 'And my hydrangeas?', { phone })).reply.content).toContain(
      'Quick survey: https://forms.example.com/pause',
    );
  });

  it('never puts the link on a reply to an invalid message', async () => {
    const campaign = await addCampaign({ surveyUrl: 'https://forms.example.com/invalid' });
    const { phone } = await existingUser(campaign);
    const invalid = await exchange(h, 'What is the capital of France?', { phone });
    expect(invalid.reply.kind).toBe('validation');
    expect(invalid.reply.content).not.toContain('Quick survey');
    expect((await exchange(h, 'How do I grow basil?', { phone })).reply.content).toContain('Quick survey');
  });

  it('fits a 200-character link into the reply within the segment budget, whole', async () => {
    const url = `https://forms.example.com/${'s'.repeat(200 - 'https://forms.example.com/'.length)}`;
    expect(url).toHaveLength(200);
    const campaign = await addCampaign({ surveyUrl: url });
    const { phone } = await existingUser(campaign);
    const { reply } = await exchange(
      h,
      'Can you explain in detail how to plan, build, fill, plant and water a raised vegetable bed for tomatoes, peppers and squash?',
      { phone },
    );
    expect(reply.content.endsWith(`Quick survey: ${url}`)).toBe(true);
    expect(analyzeSms(reply.content).segments).toBeLessThanOrEqual(3);
    expect(reply.segments).toBeLessThanOrEqual(3);
  });

  it('delivers once under concurrent replies and retries to the same user', async () => {
    const campaign = await addCampaign({ surveyUrl: 'https://forms.example.com/race' });
    const { phone, userId } = await existingUser(campaign);
    const inbound = await Promise.all(
      ['How do I grow peas?', 'And beans?', 'And carrots?', 'And beets?'].map((text) =>
        storeInbound(h.db, text, { phone }),
      ),
    );
    // Each message answered by both responders at once (a retried or duplicated job).
    await Promise.all(inbound.flatMap((m) => [pipeline().reply(m.id), pipeline(second).reply(m.id)]));
    const replies = await ds()
      .getRepository(Message)
      .findBy(inbound.map((m) => ({ id: replyIdFor(m.id) })));
    expect(replies).toHaveLength(4);
    expect(replies.filter((r) => r.content.includes('Quick survey'))).toHaveLength(1);
    const delivery = await deliveries().findOneByOrFail({ campaignId: campaign.id, userId });
    expect(replies.find((r) => r.content.includes('Quick survey'))?.id).toBe(delivery.messageId);
    expect(await deliveredCount(campaign.id)).toBe(1);
  });

  it('counts deliveries exactly when many users are answered at once', async () => {
    const campaign = await addCampaign({ surveyUrl: 'https://forms.example.com/many' });
    const users = await Promise.all(Array.from({ length: 12 }, () => existingUser(campaign)));
    const inbound = await Promise.all(
      users.map(({ phone }) => storeInbound(h.db, 'When should I plant tomatoes?', { phone })),
    );
    await Promise.all(inbound.map((m, i) => pipeline(i % 2 === 0 ? h.responder : second).reply(m.id)));
    const delivered = await ds().query<Array<{ n: number }>>(
      `SELECT count(*)::int AS n FROM "survey_deliveries" WHERE "campaign_id" = $1 AND "delivered_at" IS NOT NULL`,
      [campaign.id],
    );
    expect(delivered[0]?.n).toBe(12);
    expect(await deliveredCount(campaign.id)).toBe(12);
    const [{ rows } = { rows: 0 }] = await ds().query<Array<{ rows: number }>>(
      `SELECT count(*)::int AS rows FROM "survey_campaign_delivered_shards" WHERE "campaign_id" = $1`,
      [campaign.id],
    );
    expect(rows).toBeGreaterThanOrEqual(1);
    expect(rows).toBeLessThanOrEqual(8);
  });

  it('never gives a test user a link', async () => {
    const campaign = await addCampaign({ surveyUrl: 'https://forms.example.com/test-user' });
    const phone = newPhone();
    const first = await storeInbound(h.db, 'Hello', { phone, isTestUser: true });
    await ds().query(`UPDATE "users" SET "created_at" = now() - interval '30 days' WHERE "id" = $1`, [
      first.userId,
    ]);
    await deliveries().save({ campaignId: campaign.id, userId: first.userId });
    const { reply, user } = await exchange(h, 'How do I grow kale?', { phone, isTestUser: true });
    expect(user.isTestUser).toBe(true);
    expect(reply.content).not.toContain('Quick survey');
  });
});
