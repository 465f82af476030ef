// The reply pipeline step by step, with no OpenAI key: the offline advisor is the primary model.
import { countersOf, useClosable } from '@sprout/testing';
import {
  Conversation,
  LlmCall,
  Message,
  SurveyCampaign,
  SurveyDelivery,
  User,
  replyIdFor,
} from '@sprout/domain';
import { analyzeSms, answerComplianceKeyword } from '@sprout/sms';
import { JobQueues } from '@sprout/platform';
import { ZIP_QUESTION } from '../src/location/location-rules';
import { PipelineService } from '../src/pipeline/pipeline.service';
import { eventually, exchange, newPhone, startHarness, storeInbound } from './harness';

describe('reply pipeline (no OpenAI key)', () => {
  const h = useClosable(() => startHarness());

  const pipeline = () => h.responder.app.get(PipelineService);
  const queues = () => h.responder.app.get(JobQueues);
  const expectCountersAgree = async (userId: string) => {
    const { stored, counted } = await countersOf(h.db.dataSource, userId);
    expect(stored).toEqual(counted);
  };

  it('answers through the queue, records the reply and its call, and enqueues it for sending', async () => {
    const inbound = await storeInbound(h.db, 'When should I plant tomatoes in 97201?');
    await queues().enqueue('sms.inbound', { messageId: inbound.id });
    const replyId = replyIdFor(inbound.id);
    const reply = await eventually(
      async () => (await h.db.dataSource.getRepository(Message).findOneBy({ id: replyId })) ?? undefined,
      'the reply',
    );
    expect(reply).toMatchObject({
      direction: 'outbound',
      status: 'queued',
      kind: 'reply',
      modelUsed: 'offline-advisor',
      conversationId: inbound.conversationId,
      encoding: 'GSM-7',
      cost: 0,
    });
    expect(reply.content.toLowerCase()).toContain('tomato');
    expect(reply.responseTimeMs).toBeGreaterThanOrEqual(1);
    expect(reply.createdAt.getTime()).toBeGreaterThan(inbound.createdAt.getTime());
    await expectCountersAgree(inbound.userId);
    expect(await queues().queue('sms.outbound').getJob(`outbound-${replyId}`)).toBeDefined();
    const calls = await h.db.dataSource.getRepository(LlmCall).findBy({ messageId: replyId });
    expect(calls).toEqual([
      expect.objectContaining({
        purpose: 'reply',
        tier: 'primary',
        model: 'offline-advisor',
        cost: 0,
        error: null,
      }),
    ]);
    expect(calls[0]?.totalTokens).toBeGreaterThan(0);
    const summary = await queues().queue('conversation.summarize').getDelayed();
    expect(summary.map((job) => job.data as unknown)).toContainEqual({
      conversationId: inbound.conversationId,
    });
    const inboundJob = await queues().queue('sms.inbound').getJob(`inbound-${inbound.id}`);
    expect(inboundJob?.returnvalue).toEqual({ outcome: 'replied', replyMessageId: replyId });
  });

  it('writes one reply when the same inbound is processed twice, even at once', async () => {
    const inbound = await storeInbound(h.db, 'How often should I water my basil?');
    const outcomes = await Promise.all([pipeline().reply(inbound.id), pipeline().reply(inbound.id)]);
    const again = await pipeline().reply(inbound.id);
    const replyId = replyIdFor(inbound.id);
    expect([...outcomes, again].map((o) => o.replyMessageId)).toEqual([replyId, replyId, replyId]);
    expect(outcomes.filter((o) => o.outcome === 'replied')).toHaveLength(1);
    expect(again.outcome).toBe('already-replied');
    expect(
      await h.db.dataSource
        .getRepository(Message)
        .countBy({ conversationId: inbound.conversationId, direction: 'outbound' }),
    ).toBe(1);
    const user = await h.db.dataSource.getRepository(User).findOneByOrFail({ id: inbound.userId });
    expect(user.totalMessages).toBe(2);
  });

  it('gives an opted-out user nothing, and leaves consent keywords to sms-gateway', async () => {
    const phone = newPhone();
    const first = await storeInbound(h.db, 'When do I prune roses?', { phone });
    await h.db.dataSource
      .getRepository(User)
      .update({ id: first.userId }, { optedOut: true, optedOutAt: new Date() });
    expect(await pipeline().reply(first.id)).toEqual({ outcome: 'opted-out', replyMessageId: null });

    // Recorded as the intake records a keyword: applied and confirmed with the message.
    const help = await storeInbound(h.db, 'HELP', {
      consent: answerComplianceKeyword('HELP', 'help@sprout.example') ?? undefined,
    });
    expect(await pipeline().reply(help.id)).toEqual({ outcome: 'already-replied', replyMessageId: null });
    const ids = [replyIdFor(first.id), replyIdFor(help.id)];
    expect(await h.db.dataSource.getRepository(Message).countBy(ids.map((id) => ({ id })))).toBe(0);
    expect(await h.db.dataSource.getRepository(LlmCall).countBy({ userId: first.userId })).toBe(0);
  });

  it('continues the conversation and keeps counters', async () => {
    const phone = newPhone();
    const first = await exchange(h, 'How do I grow garlic?', { phone });
    const second = await exchange(h, 'And how deep do I plant the cloves?', { phone });
    expect(second.conversation.id).toBe(first.conversation.id);
    expect(second.conversation.messageCount).toBe(4);
    expect(second.user.totalMessages).toBe(4);
    expect(second.user.totalTokens).toBe(first.reply.tokenUsage + second.reply.tokenUsage);
    expect(second.conversation.modelUsed).toBe('offline-advisor');
    expect(second.conversation.topics).toContain('garlic');
    expect(second.conversation.lastMessageAt).toEqual(second.reply.createdAt);
    expect(second.user.lastMessageAt).toEqual(second.reply.createdAt);
    await expectCountersAgree(second.user.id);
  });

  it("keeps what a concurrent reply wrote to the conversation: it is read after the user's lock", async () => {
    const first = await storeInbound(h.db, 'How do I grow garlic?', { phone: newPhone() });
    // Another reply of this user holds the user's row and adds a topic meanwhile (NO KEY UPDATE, so
    // the model call's row, which only references the user, is not held up before the reply's lock).
    const other = h.db.dataSource.createQueryRunner();
    await other.connect();
    await other.startTransaction();
    try {
      await other.query('SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE', [first.userId]);
      const replying = pipeline().reply(first.id);
      await eventually(async () => {
        const waiting: unknown[] = await h.db.dataSource.query(
          `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        return waiting.length > 0 ? true : undefined;
      }, 'the reply waiting on the user lock');
      await other.query(`UPDATE conversations SET topics = array_append(topics, 'roses') WHERE id = $1`, [
        first.conversationId,
      ]);
      await other.commitTransaction();
      expect((await replying).outcome).toBe('replied');
    } finally {
      if (other.isTransactionActive) await other.rollbackTransaction();
      await other.release();
    }
    const conversation = await h.db.dataSource
      .getRepository(Conversation)
      .findOneByOrFail({ id: first.conversationId });
    expect(conversation.topics).toEqual(expect.arrayContaining(['roses', 'garlic']));
  });

  it('answers a follow-up in the context of the earlier question: the offline model reads the history', async () => {
    const phone = newPhone();
    await exchange(h, 'When should I plant tomatoes in 97201?', { phone });
    const { reply } = await exchange(h, 'what about peppers?', { phone });
    expect(reply.content).toMatch(/pepper/i);
    expect(reply.content).toMatch(/zone 8b/);
  });

  it('never refuses a follow-up of a gardening conversation as off-topic', async () => {
    const phone = newPhone();
    await exchange(h, 'my tomato seedlings are tall and skinny, ZIP 43201', { phone });
    const { reply } = await exchange(h, 'ok they flopped over, now what', { phone });
    expect(reply.kind).toBe('reply');
    expect(reply.modelUsed).toBe('offline-advisor');
    expect(reply.content).not.toMatch(/only help with plants/);
    // Out of a conversation, the same words are not about gardening.
    const alone = await exchange(h, 'ok they flopped over, now what');
    expect(alone.reply.kind).toBe('validation');
  });

  it('orders a reply after an inbound stamped ahead of the database clock', async () => {
    const ahead = new Date(Date.now() + 5_000);
    const { inbound, reply, conversation } = await exchange(h, 'How often should I water carrots?', {
      at: ahead,
    });
    expect(reply.createdAt.getTime()).toBeGreaterThan(inbound.createdAt.getTime());
    expect(conversation.lastMessageAt).toEqual(reply.createdAt);
    await expectCountersAgree(inbound.userId);
  });

  it('answers nothing to a test user after their STOP, recorded as the simulator records it', async () => {
    const phone = newPhone();
    const question = await exchange(h, 'How do I grow garlic?', { phone, isTestUser: true });
    const stop = await storeInbound(h.db, 'STOP', {
      phone,
      consent: answerComplianceKeyword('STOP', 'help@sprout.example') ?? undefined,
    });
    expect(stop.kind).toBe('consent');
    const user = await h.db.dataSource.getRepository(User).findOneByOrFail({ id: question.user.id });
    expect(user).toMatchObject({ isTestUser: true, optedOut: true });
    // The keyword never reaches the model, and a later question gets no reply.
    expect(await pipeline().reply(stop.id)).toEqual({ outcome: 'opted-out', replyMessageId: null });
    const later = await storeInbound(h.db, 'And how deep do I plant the cloves?', { phone });
    expect(await pipeline().reply(later.id)).toEqual({ outcome: 'opted-out', replyMessageId: null });
    expect(await h.db.dataSource.getRepository(Message).existsBy({ id: replyIdFor(later.id) })).toBe(false);
    expect(
      await h.db.dataSource.getRepository(Message).countBy({ userId: user.id, direction: 'outbound' }),
    ).toBe(2);
    await expectCountersAgree(user.id);
  });

  describe('location onboarding', () => {
    it('stores a ZIP from a question and answers for that zone, without asking again', async () => {
      const { user, reply } = await exchange(h, 'When should I plant tomatoes in 98101?');
      expect(user).toMatchObject({
        zipCode: '98101',
        city: 'Seattle',
        state: 'WA',
        region: 'Pacific Northwest',
      });
      expect(user.hardinessZone).toMatch(/^\d+[ab]$/);
      expect(user.profile.region).toBe('Pacific Northwest');
      expect(user.locationAskedAt).toBeNull();
      expect(reply.content).not.toContain(ZIP_QUESTION);
    });

    it('reads a city and state into a representative ZIP, and confirms a location-only reply', async () => {
      const { user, reply, calls } = await exchange(h, 'Portland, Oregon');
      expect(user).toMatchObject({ city: 'Portland', state: 'OR', region: 'Pacific Northwest' });
      expect(user.zipCode).toMatch(/^97\d{3}$/);
      expect(reply.kind).toBe('onboarding');
      expect(reply.content).toContain('Portland, OR');
      expect(calls).toHaveLength(0);
    });

    it('stores a region when that is all it gets', async () => {
      const { user } = await exchange(h, 'I garden in the Pacific Northwest');
      expect(user).toMatchObject({ region: 'Pacific Northwest', zipCode: null });
      expect(user.hardinessZone).not.toBeNull();
    });

    it("seeds the location from Twilio's hint, unless the user declined to give one", async () => {
      const locationHint = { zip: '97201', city: 'PORTLAND', state: 'OR', country: 'US' };
      const { user, reply } = await exchange(h, 'When should I plant garlic?', { locationHint });
      expect(user).toMatchObject({
        zipCode: '97201',
        city: 'Portland',
        state: 'OR',
        region: 'Pacific Northwest',
      });
      expect(reply.content).not.toContain(ZIP_QUESTION);

      const phone = newPhone();
      const refused = await exchange(h, "I'd rather not say", { phone, locationHint });
      expect(refused.user.zipCode).toBeNull();
      const later = await exchange(h, 'How often should I water tomatoes?', { phone, locationHint });
      expect(later.user.zipCode).toBeNull();
      expect(later.reply.content).not.toContain(ZIP_QUESTION);

      const abroad = await exchange(h, 'How often should I water tomatoes?', {
        locationHint: { city: 'TORONTO', state: 'ON', country: 'CA' },
      });
      expect(abroad.user.state).toBeNull();
    });

    it('asks for a ZIP once, while still answering', async () => {
      const phone = newPhone();
      const first = await exchange(h, 'How often should I water tomatoes?', { phone });
      expect(first.reply.content).toContain(ZIP_QUESTION);
      expect(first.reply.content.toLowerCase()).toContain('water');
      expect(first.user.locationAskedAt).not.toBeNull();
      expect(analyzeSms(first.reply.content).segments).toBeLessThanOrEqual(3);
      const second = await exchange(h, 'What about peppers, how often do they need water?', { phone });
      expect(second.reply.content).not.toContain(ZIP_QUESTION);
    });

    it('respects a refusal: no question, general answers', async () => {
      const phone = newPhone();
      const refusal = await exchange(h, "I'd rather not say", { phone });
      expect(refusal.user.locationRefused).toBe(true);
      expect(refusal.reply.kind).toBe('onboarding');
      expect(refusal.reply.content).toMatch(/general/i);
      const question = await exchange(h, 'How often should I water my lawn?', { phone });
      expect(question.reply.kind).toBe('reply');
      expect(question.reply.content).not.toContain(ZIP_QUESTION);
      expect(question.user.locationAskedAt).toBeNull();
    });
  });

  describe('validation', () => {
    it('answers a safety concern with Poison Control guidance and no model call', async () => {
      const { reply, calls } = await exchange(
        h,
        'My toddler ate some leaves from our oleander, what do I do?',
      );
      expect(reply.kind).toBe('validation');
      expect(reply.content).toContain('1-800-222-1222');
      expect(reply.modelUsed).toBeNull();
      expect(calls).toHaveLength(0);
    });

    it('answers small talk from its template as a plain reply, with no model call', async () => {
      const { reply, calls } = await exchange(h, 'Thanks so much!');
      expect(reply).toMatchObject({ kind: 'reply', modelUsed: null, tokenUsage: 0 });
      expect(reply.content).toMatch(/welcome/i);
      expect(calls).toHaveLength(0);
    });

    it.each([
      ['non-gardening', 'What is the capital of France?', /gardening/i],
      ['spam', 'WIN a FREE cruise!!! Click www.prize-now.biz to claim your $500 gift card', /gardening/i],
      ['too short', 'k', /more/i],
      ['out of region', 'I live in Toronto', /US/],
    ])('answers %s with its template and no model call', async (_kind, text, expected) => {
      const { reply, calls } = await exchange(h, text);
      expect(reply.kind).toBe('validation');
      expect(reply.content).toMatch(expected);
      expect(calls).toHaveLength(0);
    });
  });

  describe('profile', () => {
    it('applies ZIP, ZONE, SOIL and LEVEL commands with a confirmation and no model call', async () => {
      const phone = newPhone();
      const zip = await exchange(h, 'ZIP 98101', { phone });
      expect(zip.reply.kind).toBe('command');
      expect(zip.reply.content).toContain('Saved: ZIP 98101');
      expect(zip.user).toMatchObject({ zipCode: '98101', state: 'WA' });
      const zone = await exchange(h, 'ZONE 7b', { phone });
      expect(zone.user.hardinessZone).toBe('7b');
      const soil = await exchange(h, 'SOIL clay', { phone });
      expect(soil.user.profile.soilType).toBe('clay');
      const level = await exchange(h, 'LEVEL beginner', { phone });
      expect(level.user.profile.experienceLevel).toBe('beginner');
      expect(level.reply.content).toContain('beginner');
      expect(level.calls).toHaveLength(0);
      expect(level.user.profileCompletionScore).toBeGreaterThan(zip.user.profileCompletionScore);
      const bad = await exchange(h, 'ZIP 00000', { phone });
      expect(bad.reply.content).toContain("couldn't find ZIP 00000");
      expect(bad.user.zipCode).toBe('98101');
    });

    it('learns growing context, interests, style and experience, and stores sentiment and topics', async () => {
      const phone = newPhone();
      const { inbound, user, conversation } = await exchange(
        h,
        "I'm new to gardening and my tomatoes in my raised beds keep dying, nothing works! Ugh.",
        { phone },
      );
      expect(inbound.sentiment).toBe('frustrated');
      expect(inbound.topics).toContain('tomatoes');
      expect(conversation.sentiment).toBe('frustrated');
      expect(user.averageSentiment).toBe('frustrated');
      expect(user.profile).toMatchObject({ experienceLevel: 'beginner', growingContext: 'raised beds' });
      expect(user.profile.preferences).toContain('tomatoes');
      expect(user.profile.conversationStyle).toBeDefined();
      const later = await exchange(h, 'Thanks so much, the basil is thriving now, I love it!', { phone });
      expect(later.inbound.sentiment).toBe('positive');
      expect(later.user.profile.preferences?.[0]).toBe('herbs');
      expect(later.user.profile.preferences).toContain('tomatoes');
    });
  });

  describe('survey link', () => {
    const campaign = (values: Partial<SurveyCampaign> = {}) =>
      h.db.dataSource.getRepository(SurveyCampaign).save({
        name: 'Spring check-in',
        surveyUrl: 'https://forms.example/spring',
        status: 'live' as const,
        startDate: new Date(Date.now() - 86_400_000),
        ...values,
      });

    it('appends a due link once, marks the delivery and counts it', async () => {
      const phone = newPhone();
      const first = await storeInbound(h.db, 'hello there', { phone });
      const live = await campaign();
      const paused = await campaign({ status: 'paused', surveyUrl: 'https://forms.example/paused' });
      // The user existed before the campaign started: an existing user, reached in the next reply.
      await h.db.dataSource.query(
        `UPDATE "users" SET "created_at" = now() - interval '2 days' WHERE "id" = $1`,
        [first.userId],
      );
      const deliveries = h.db.dataSource.getRepository(SurveyDelivery);
      await deliveries.save([
        { campaignId: live.id, userId: first.userId },
        { campaignId: paused.id, userId: first.userId },
      ]);
      const { reply } = await exchange(h, 'How do I keep slugs off my lettuce?', { phone });
      expect(reply.content).toContain('Quick survey: https://forms.example/spring');
      expect(reply.content).not.toContain('paused');
      expect(reply.segments).toBeLessThanOrEqual(3);
      const delivered = await deliveries.findOneByOrFail({ campaignId: live.id });
      expect(delivered).toMatchObject({ conversationId: reply.conversationId, messageId: reply.id });
      expect(delivered.deliveredAt).not.toBeNull();
      // Counted on the campaign's shard rows, beside its delivered_count column.
      const [counted] = await h.db.dataSource.query<Array<{ delivered: number }>>(
        `SELECT sum("delivered")::int AS delivered FROM "survey_campaign_delivered_shards" WHERE "campaign_id" = $1`,
        [live.id],
      );
      expect(counted?.delivered).toBe(1);
      expect((await deliveries.findOneByOrFail({ campaignId: paused.id })).deliveredAt).toBeNull();
      const next = await exchange(h, 'And what about snails on my hostas?', { phone });
      expect(next.reply.content).not.toContain('Quick survey');
      await expectCountersAgree(first.userId);
    });

    it('reaches a new user in their second conversation', async () => {
      const live = await campaign({
        surveyUrl: 'https://forms.example/new',
        startDate: new Date(Date.now() - 60_000),
      });
      const phone = newPhone();
      const first = await storeInbound(h.db, 'How do I start a compost pile?', { phone });
      await h.db.dataSource.getRepository(SurveyDelivery).save({ campaignId: live.id, userId: first.userId });
      await pipeline().reply(first.id);
      const firstReply = await h.db.dataSource
        .getRepository(Message)
        .findOneByOrFail({ id: replyIdFor(first.id) });
      expect(firstReply.content).not.toContain('Quick survey');
      // Seven hours later: a new conversation.
      const { reply, conversation } = await exchange(h, 'Is my compost too wet?', {
        phone,
        at: new Date(Date.now() + 7 * 60 * 60 * 1000),
      });
      expect(conversation.id).not.toBe(first.conversationId);
      expect(reply.content).toContain('Quick survey: https://forms.example/new');
    });
  });
});
