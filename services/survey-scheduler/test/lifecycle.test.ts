import { type CampaignStatus, SurveyCampaign, SurveyDelivery } from '@sprout/domain';
import { JobQueues } from '@sprout/platform';
import type { DataSource } from 'typeorm';
import { TARGETING_SETTLE_MS, campaignStatusAt, isTargeted } from '../src/lifecycle/campaign-rules';
import { LifecycleService } from '../src/lifecycle/lifecycle.service';
import { useScheduler } from './support/scheduler';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

describe('survey lifecycle', () => {
  const h = useScheduler();
  let ds: DataSource;
  let lifecycle: LifecycleService;
  let phoneSeq = 0;

  beforeAll(() => {
    ds = h.ds;
    lifecycle = h.service.app.get(LifecycleService);
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
      newAtStart: await addUser({ createdAt: start }),
      newOngoing: await addUser({
        createdAt: new Date(start.getTime() + HOUR),
        conversations: [[new Date(now.getTime() - HOUR), null]],
      }),
      newTest: await addUser({ createdAt: new Date(start.getTime() + HOUR), isTestUser: true }),
      newOptedOut: await addUser({
        createdAt: new Date(start.getTime() + HOUR),
        optedOut: true,
        conversations: [[new Date(now.getTime() - 10 * HOUR), new Date(now.getTime() - 9 * HOUR)]],
      }),
    };
  };

  const deliveryCount = async (campaignId: string): Promise<number> =>
    ds.getRepository(SurveyDelivery).countBy({ campaignId });

  it('starts a due scheduled campaign and targets real, opted-in existing and new users', async () => {
    const now = new Date();
    const users = await seedAudience(now);
    const c = await addCampaign({ status: 'scheduled', startDate: users.start, totalTargetUsers: 999 });

    const report = await lifecycle.run({ now });

    expect(report.transitions).toEqual([{ campaignId: c.id, from: 'scheduled', to: 'live' }]);
    expect(report.newlyTargeted).toBe(4);
    expect((await campaign(c.id)).status).toBe('live');
    expect(await targetedUsers(c.id)).toEqual(
      [users.existing, users.existingJustBefore, users.newAtStart, users.newOngoing].sort(),
    );
    // The seed's projected total is replaced by the count of the deliveries themselves.
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
      Array<{ id: string; created_at: Date; is_test_user: boolean; opted_out: boolean }>
    >(`SELECT "id", "created_at", "is_test_user", "opted_out" FROM "users"`);
    const expected = rows
      .filter((u) =>
        isTargeted(c, { createdAt: u.created_at, isTestUser: u.is_test_user, optedOut: u.opted_out }),
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
    expect(await targetedUsers(newOnly.id)).toEqual([users.newAtStart, users.newOngoing].sort());
    expect(await targetedUsers(nobody.id)).toEqual([]);
    expect((await campaign(existingOnly.id)).totalTargetUsers).toBe(2);
    expect((await campaign(newOnly.id)).totalTargetUsers).toBe(2);
    expect((await campaign(nobody.id)).totalTargetUsers).toBe(0);

    // Later joiners: only the campaigns targeting new users follow them.
    const later = await addUser({ createdAt: new Date(now.getTime() - HOUR) });
    await lifecycle.run({ now });
    expect(await targetedUsers(existingOnly.id)).not.toContain(later);
    expect(await targetedUsers(newOnly.id)).toContain(later);
  });

  it('is idempotent, exact under concurrent runs, and follows users who join later', async () => {
    const now = new Date();
    const users = await seedAudience(now);
    const c = await addCampaign({ status: 'live', startDate: users.start });

    await Promise.all([lifecycle.run({ now, batchSize: 2 }), lifecycle.run({ now, batchSize: 2 })]);
    await lifecycle.run({ now });
    expect(await deliveryCount(c.id)).toBe(4);
    expect((await campaign(c.id)).totalTargetUsers).toBe(4);
    expect((await lifecycle.run({ now })).newlyTargeted).toBe(0);

    // A user who joined a minute ago is targeted; one created within the settle margin waits.
    const joined = await addUser({ createdAt: new Date(now.getTime() - 60_000) });
    const justNow = await addUser({ createdAt: new Date(now.getTime() - TARGETING_SETTLE_MS / 2) });
    const runs = await Promise.all([lifecycle.run({ now }), lifecycle.run({ now })]);
    expect(runs[0].newlyTargeted + runs[1].newlyTargeted).toBe(1);
    expect(await targetedUsers(c.id)).toContain(joined);
    expect(await targetedUsers(c.id)).not.toContain(justNow);
    const later = new Date(now.getTime() + TARGETING_SETTLE_MS);
    expect((await lifecycle.run({ now: later })).newlyTargeted).toBe(1);
    expect(await targetedUsers(c.id)).toContain(justNow);
    expect((await campaign(c.id)).totalTargetUsers).toBe(6);
    expect(await deliveryCount(c.id)).toBe(6);
  });

  it('walks users in batches, including many created at the same microsecond, and never twice', async () => {
    const now = new Date();
    const start = new Date(now.getTime() - DAY);
    // 25 users created by one statement share one created_at, down to the microsecond.
    await ds.query(
      `INSERT INTO "users" ("phone_number", "created_at")
       SELECT '+1206555' || lpad(g::text, 4, '0'), $1::timestamptz + interval '0.000123 second'
         FROM generate_series(1, 25) g`,
      [new Date(start.getTime() - DAY)],
    );
    for (let i = 0; i < 5; i += 1) await addUser({ createdAt: new Date(start.getTime() + i * HOUR) });
    const c = await addCampaign({ status: 'live', startDate: start });

    const report = await lifecycle.run({ now, batchSize: 4 });

    expect(report.newlyTargeted).toBe(30);
    expect(await deliveryCount(c.id)).toBe(30);
    expect((await campaign(c.id)).totalTargetUsers).toBe(30);
    const [position] = await ds.query<Array<{ at: string; id: string; last_at: string; last_id: string }>>(
      `SELECT c."targeted_through_created_at"::text AS at, c."targeted_through_user_id"::text AS id,
              u."created_at"::text AS last_at, u."id"::text AS last_id
         FROM "survey_campaigns" c,
              (SELECT "created_at", "id" FROM "users" ORDER BY "created_at" DESC, "id" DESC LIMIT 1) u
        WHERE c."id" = $1`,
      [c.id],
    );
    expect(position).toEqual({
      at: position!.last_at,
      id: position!.last_id,
      last_at: position!.last_at,
      last_id: position!.last_id,
    });
    expect((await lifecycle.run({ now, batchSize: 4 })).newlyTargeted).toBe(0);
  });

  it('moves campaigns by their dates and targets only live ones', async () => {
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
    const pausedEnded = await addCampaign({
      status: 'paused',
      startDate: new Date(now.getTime() - 10 * DAY),
      endDate: new Date(now.getTime() - HOUR),
    });
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
    expect((await campaign(pausedEnded.id)).status).toBe('completed');
    expect((await campaign(openEnded.id)).status).toBe('live');
    expect(report.transitions).toEqual(
      expect.arrayContaining([
        { campaignId: ended.id, from: 'live', to: 'completed' },
        { campaignId: missed.id, from: 'scheduled', to: 'completed' },
        { campaignId: pausedEnded.id, from: 'paused', to: 'completed' },
        { campaignId: openEnded.id, from: 'scheduled', to: 'live' },
      ]),
    );
    expect(report.transitions).toHaveLength(4);
    for (const id of [future.id, ended.id, missed.id, paused.id, pausedEnded.id])
      expect(await targetedUsers(id)).toEqual([]);
    expect(await targetedUsers(openEnded.id)).toHaveLength(1);
    expect(report.campaigns).toBe(6);

    // Resumed by an admin: the next run targets its audience.
    await ds.getRepository(SurveyCampaign).update({ id: paused.id }, { status: 'live' });
    await lifecycle.run({ now });
    expect(await targetedUsers(paused.id)).toHaveLength(1);
  });

  it('applies the same status rule in SQL as campaignStatusAt', async () => {
    const now = new Date();
    const statuses: CampaignStatus[] = ['scheduled', 'live', 'paused', 'completed'];
    const starts = [new Date(now.getTime() - DAY), new Date(now.getTime() + DAY)];
    const ends = [null, new Date(now.getTime() - HOUR), new Date(now.getTime() + HOUR)];
    const cases: SurveyCampaign[] = [];
    for (const status of statuses)
      for (const startDate of starts)
        for (const endDate of ends)
          cases.push(await addCampaign({ status, startDate, endDate, targetExistingUsers: false }));

    await lifecycle.run({ now });

    for (const c of cases) expect((await campaign(c.id)).status).toBe(campaignStatusAt(c, now));
  });

  it('stops targeting while paused and resumes where it stopped', async () => {
    const now = new Date();
    const users = await seedAudience(now);
    const c = await addCampaign({ status: 'paused', startDate: users.start });
    await lifecycle.run({ now });
    expect(await deliveryCount(c.id)).toBe(0);
    await ds.getRepository(SurveyCampaign).update({ id: c.id }, { status: 'live' });
    expect((await lifecycle.run({ now, campaignId: c.id })).newlyTargeted).toBe(4);
  });

  it('runs on demand for one campaign through the survey.lifecycle queue', async () => {
    await addUser({ createdAt: new Date(Date.now() - 60 * DAY) });
    const c = await addCampaign({ status: 'scheduled', startDate: new Date(Date.now() - 1000) });
    const queues = h.service.app.get(JobQueues);

    const report = await queues.enqueueAndWait('survey.lifecycle', { campaignId: c.id }, 15_000);

    expect(report).toEqual({
      campaigns: 1,
      transitions: [{ campaignId: c.id, from: 'scheduled', to: 'live' }],
      newlyTargeted: 1,
    });
    expect((await campaign(c.id)).status).toBe('live');
    expect((await campaign(c.id)).totalTargetUsers).toBe(1);
  });

  it('does nothing for a campaign that no longer exists', async () => {
    const queues = h.service.app.get(JobQueues);
    const report = await queues.enqueueAndWait(
      'survey.lifecycle',
      { campaignId: '6f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f' },
      15_000,
    );
    expect(report).toEqual({ campaigns: 0, transitions: [], newlyTargeted: 0 });
  });
});
