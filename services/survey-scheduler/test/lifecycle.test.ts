import { SurveyCampaign, SurveyDelivery } from '@sprout/domain';
import { JobQueues, type ServiceApp } from '@sprout/platform';
import { type TestDatabase, type TestRedis, createTestDatabase, createTestRedis } from '@sprout/testing';
import type { DataSource } from 'typeorm';
import { createApp } from '../src/app';
import { audienceRuleOf, isConversationFinished, isTargeted } from '../src/lifecycle/campaign-rules';
import { LifecycleService } from '../src/lifecycle/lifecycle.service';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

describe('survey lifecycle', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  let service: ServiceApp;
  let ds: DataSource;
  let lifecycle: LifecycleService;
  let phoneSeq = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    redis = await createTestRedis();
    service = await createApp({
      databaseUrl: db.url,
      redisUrl: redis.url,
      bullmqPrefix: redis.prefix,
      logLevel: 'silent',
      port: 0,
    });
    ds = db.dataSource;
    lifecycle = service.app.get(LifecycleService);
  });

  afterAll(async () => {
    await service?.close();
    await redis?.cleanup();
    await db?.drop();
  });

  beforeEach(async () => {
    await ds.query('TRUNCATE "survey_deliveries", "survey_campaigns", "conversations", "users" CASCADE');
  });

  interface SeedUser {
    createdAt: Date;
    isTestUser?: boolean;
    optedOut?: boolean;
    /** Conversations as [lastMessageAt, endedAt]. */
    conversations?: Array<[Date, Date | null]>;
  }

  const addUser = async (user: SeedUser): Promise<string> => {
    phoneSeq += 1;
    const [row] = await ds.query<Array<{ id: string }>>(
      `INSERT INTO "users" ("phone_number", "created_at", "is_test_user", "opted_out")
       VALUES ($1, $2, $3, $4) RETURNING "id"`,
      [
        `+1503555${String(phoneSeq).padStart(4, '0')}`,
        user.createdAt,
        user.isTestUser ?? false,
        user.optedOut ?? false,
      ],
    );
    const id = row!.id;
    for (const [lastMessageAt, endedAt] of user.conversations ?? []) {
      await ds.query(
        `INSERT INTO "conversations" ("user_id", "started_at", "last_message_at", "ended_at") VALUES ($1, $2, $2, $3)`,
        [id, lastMessageAt, endedAt],
      );
    }
    return id;
  };

  const addCampaign = async (values: Partial<SurveyCampaign>): Promise<SurveyCampaign> =>
    ds.getRepository(SurveyCampaign).save(
      ds.getRepository(SurveyCampaign).create({
        name: 'Spring check-in',
        surveyUrl: 'https://forms.example.com/spring',
        status: 'scheduled',
        startDate: new Date(Date.now() - DAY),
        endDate: new Date(Date.now() + 7 * DAY),
        targetExistingUsers: true,
        targetNewUsers: true,
        ...values,
      }),
    );

  const campaign = (id: string): Promise<SurveyCampaign> =>
    ds.getRepository(SurveyCampaign).findOneByOrFail({ id });
  const targetedUsers = async (campaignId: string): Promise<string[]> =>
    (await ds.getRepository(SurveyDelivery).findBy({ campaignId })).map((d) => d.userId).sort();

  /** Users of every kind around a campaign that started a day ago. */
  const seedAudience = async (now: Date) => {
    const start = new Date(now.getTime() - DAY);
    return {
      start,
      existing: await addUser({ createdAt: new Date(start.getTime() - 30 * DAY) }),
      existingJustBefore: await addUser({ createdAt: new Date(start.getTime() - 1) }),
      existingTest: await addUser({ createdAt: new Date(start.getTime() - 30 * DAY), isTestUser: true }),
      existingOptedOut: await addUser({ createdAt: new Date(start.getTime() - 30 * DAY), optedOut: true }),
      newNoConversation: await addUser({ createdAt: new Date(start.getTime() + HOUR) }),
      newOngoing: await addUser({
        createdAt: new Date(start.getTime() + HOUR),
        conversations: [[new Date(now.getTime() - HOUR), null]],
      }),
      newEnded: await addUser({
        createdAt: new Date(start.getTime() + HOUR),
        conversations: [[new Date(now.getTime() - HOUR), new Date(now.getTime() - HOUR)]],
      }),
      newIdle: await addUser({
        createdAt: new Date(start.getTime() + HOUR),
        conversations: [[new Date(now.getTime() - 7 * HOUR), null]],
      }),
      newEndedOptedOut: await addUser({
        createdAt: new Date(start.getTime() + HOUR),
        optedOut: true,
        conversations: [[new Date(now.getTime() - 10 * HOUR), new Date(now.getTime() - 9 * HOUR)]],
      }),
    };
  };

  it('starts a due scheduled campaign and targets existing users and new users after one finished conversation', async () => {
    const now = new Date();
    const users = await seedAudience(now);
    const c = await addCampaign({ status: 'scheduled', startDate: users.start });

    await lifecycle.run({ now });

    expect((await campaign(c.id)).status).toBe('live');
    expect(await targetedUsers(c.id)).toEqual(
      [users.existing, users.existingJustBefore, users.newEnded, users.newIdle].sort(),
    );
    const saved = await campaign(c.id);
    expect(saved.totalTargetUsers).toBe(4);
    expect(saved.deliveredCount).toBe(0);
    const pending = await ds.getRepository(SurveyDelivery).findBy({ campaignId: c.id });
    expect(pending.every((d) => d.conversationId === null && d.deliveredAt === null)).toBe(true);
  });

  it('agrees with the pure targeting rule on every seeded user', async () => {
    const now = new Date();
    const users = await seedAudience(now);
    const c = await addCampaign({ status: 'live', startDate: users.start });
    await lifecycle.run({ now });

    const rows = await ds.query<
      Array<{
        id: string;
        created_at: Date;
        is_test_user: boolean;
        opted_out: boolean;
        conversations: Array<{ endedAt: string | null; lastMessageAt: string }>;
      }>
    >(
      `SELECT u."id", u."created_at", u."is_test_user", u."opted_out",
              coalesce(json_agg(json_build_object('endedAt', c."ended_at", 'lastMessageAt', c."last_message_at"))
                FILTER (WHERE c."id" IS NOT NULL), '[]') AS conversations
         FROM "users" u LEFT JOIN "conversations" c ON c."user_id" = u."id" GROUP BY u."id"`,
    );
    const rule = audienceRuleOf(c);
    const expected = rows
      .filter((u) =>
        isTargeted(rule, {
          createdAt: u.created_at,
          isTestUser: u.is_test_user,
          optedOut: u.opted_out,
          finishedConversations: u.conversations.filter((conv) =>
            isConversationFinished(
              {
                endedAt: conv.endedAt === null ? null : new Date(conv.endedAt),
                lastMessageAt: new Date(conv.lastMessageAt),
              },
              now,
              6 * HOUR,
            ),
          ).length,
        }),
      )
      .map((u) => u.id)
      .sort();
    expect(expected).toHaveLength(4);
    expect(await targetedUsers(c.id)).toEqual(expected);
  });

  it('follows the audience switches', async () => {
    const now = new Date();
    const users = await seedAudience(now);
    const existingOnly = await addCampaign({ status: 'live', startDate: users.start, targetNewUsers: false });
    const newOnly = await addCampaign({ status: 'live', startDate: users.start, targetExistingUsers: false });
    const nobody = await addCampaign({
      status: 'live',
      startDate: users.start,
      targetExistingUsers: false,
      targetNewUsers: false,
    });

    await lifecycle.run({ now });

    expect(await targetedUsers(existingOnly.id)).toEqual([users.existing, users.existingJustBefore].sort());
    expect(await targetedUsers(newOnly.id)).toEqual([users.newEnded, users.newIdle].sort());
    expect(await targetedUsers(nobody.id)).toEqual([]);
  });

  it('is idempotent and picks up new users once they qualify', async () => {
    const now = new Date();
    const users = await seedAudience(now);
    const c = await addCampaign({ status: 'live', startDate: users.start });

    await lifecycle.run({ now });
    await lifecycle.run({ now });
    expect(await targetedUsers(c.id)).toHaveLength(4);

    // The ongoing conversation ends: that user now qualifies, once.
    await ds.query(`UPDATE "conversations" SET "ended_at" = now() WHERE "user_id" = $1`, [users.newOngoing]);
    await Promise.all([lifecycle.run({ now }), lifecycle.run({ now })]);
    expect(await targetedUsers(c.id)).toContain(users.newOngoing);
    expect(await targetedUsers(c.id)).toHaveLength(5);
    expect((await campaign(c.id)).totalTargetUsers).toBe(5);
  });

  it('moves campaigns by their dates, keeps paused ones paused and targets only live ones', async () => {
    const now = new Date();
    await addUser({ createdAt: new Date(now.getTime() - 60 * DAY) });
    const future = await addCampaign({ status: 'scheduled', startDate: new Date(now.getTime() + DAY) });
    const ended = await addCampaign({
      status: 'live',
      startDate: new Date(now.getTime() - 10 * DAY),
      endDate: new Date(now.getTime() - 1000),
    });
    const missed = await addCampaign({
      status: 'scheduled',
      startDate: new Date(now.getTime() - 10 * DAY),
      endDate: new Date(now.getTime() - DAY),
    });
    const paused = await addCampaign({ status: 'paused', startDate: new Date(now.getTime() - DAY) });
    const openEnded = await addCampaign({
      status: 'scheduled',
      startDate: new Date(now.getTime() - DAY),
      endDate: null,
    });

    const report = await lifecycle.run({ now });

    expect((await campaign(future.id)).status).toBe('scheduled');
    expect((await campaign(ended.id)).status).toBe('completed');
    expect((await campaign(missed.id)).status).toBe('completed');
    expect((await campaign(paused.id)).status).toBe('paused');
    expect((await campaign(openEnded.id)).status).toBe('live');
    for (const id of [future.id, ended.id, missed.id, paused.id]) expect(await targetedUsers(id)).toEqual([]);
    expect(await targetedUsers(openEnded.id)).toHaveLength(1);
    expect(report.campaigns).toBeGreaterThanOrEqual(1);

    // Resumed by an admin: the next run targets its audience.
    await ds.getRepository(SurveyCampaign).update({ id: paused.id }, { status: 'live' });
    await lifecycle.run({ now });
    expect(await targetedUsers(paused.id)).toHaveLength(1);
  });

  it('recounts delivered deliveries marked by the ai-responder, paused campaigns included', async () => {
    const now = new Date();
    const users = await seedAudience(now);
    const c = await addCampaign({ status: 'live', startDate: users.start });
    await lifecycle.run({ now });

    const [conversation] = await ds.query<Array<{ id: string }>>(
      `SELECT "id" FROM "conversations" WHERE "user_id" = $1`,
      [users.newEnded],
    );
    await ds.query(
      `UPDATE "survey_deliveries" SET "conversation_id" = $1, "delivered_at" = now() WHERE "campaign_id" = $2 AND "user_id" = $3`,
      [conversation!.id, c.id, users.newEnded],
    );
    await ds.getRepository(SurveyCampaign).update({ id: c.id }, { status: 'paused' });
    await lifecycle.run({ now });

    const saved = await campaign(c.id);
    expect(saved.status).toBe('paused');
    expect(saved.deliveredCount).toBe(1);
    expect(saved.totalTargetUsers).toBe(4);
  });

  it('runs on demand for one campaign through the survey.lifecycle queue', async () => {
    await addUser({ createdAt: new Date(Date.now() - 60 * DAY) });
    const c = await addCampaign({ status: 'scheduled', startDate: new Date(Date.now() - 1000) });
    const queues = service.app.get(JobQueues);

    const report = await queues.enqueueAndWait('survey.lifecycle', { campaignId: c.id }, 15_000);

    expect(report.campaigns).toBe(1);
    expect((await campaign(c.id)).status).toBe('live');
    expect((await campaign(c.id)).totalTargetUsers).toBe(1);
  });

  it('does nothing for a campaign that no longer exists', async () => {
    const queues = service.app.get(JobQueues);
    const report = await queues.enqueueAndWait(
      'survey.lifecycle',
      { campaignId: '6f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f' },
      15_000,
    );
    expect(report).toEqual({ campaigns: 0, transitions: [], newlyTargeted: 0 });
  });
});
