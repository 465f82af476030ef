// Survey campaigns through the real gateway: guard, validation, the error
// filter, Postgres, and the survey.lifecycle job told on a change.
import { type SurveyCampaignDto, type SurveyDeliveryDto } from '@sprout/contracts';
import { JobQueues } from '@sprout/platform';
import { useClosable } from '@sprout/testing';
import { startSignedIn } from './support/gateway';

const DAY = 24 * 60 * 60 * 1000;
const UNKNOWN_ID = '6f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f';
const BASE = '/api/admin/survey-campaigns';

const gw = useClosable(() => startSignedIn());

beforeEach(async () => {
  await gw.ds.query('TRUNCATE "survey_campaigns", "users" CASCADE');
  await gw.app.get(JobQueues).queue('survey.lifecycle').obliterate({ force: true });
});

type Method = 'GET' | 'POST' | 'PATCH';
const call = (method: Method, url: string, payload?: unknown) =>
  gw.app.inject({
    method,
    url,
    headers: { cookie: gw.cookie },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

const create = async (body: Record<string, unknown> = {}): Promise<SurveyCampaignDto> => {
  const res = await call('POST', BASE, {
    name: 'Spring check-in',
    surveyUrl: 'https://forms.example.com/spring',
    ...body,
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ campaign: SurveyCampaignDto }>().campaign;
};

/** A campaign row as the seed or the scheduler leaves it. */
const insertCampaign = async (values: {
  status: string;
  endDate?: Date | null;
  startDate?: Date;
}): Promise<string> => {
  const [row] = await gw.ds.query<Array<{ id: string }>>(
    `INSERT INTO "survey_campaigns" ("name", "survey_url", "status", "start_date", "end_date")
     VALUES ('Seeded', 'https://forms.example.com/seeded', $1, $2, $3) RETURNING "id"`,
    [values.status, values.startDate ?? new Date(Date.now() - DAY), values.endDate ?? null],
  );
  return row!.id;
};

const lifecycleJobs = async (): Promise<unknown[]> =>
  (await gw.app.get(JobQueues).queue('survey.lifecycle').getJobs(['waiting', 'delayed', 'prioritized'])).map(
    (job) => job.data as unknown,
  );

const errorOf = (res: { statusCode: number; json: <T>() => T }) => ({
  status: res.statusCode,
  message: res.json<{ message: string }>().message,
});

describe('access', () => {
  it('answers 401 without a session', async () => {
    for (const [method, url] of [
      ['GET', BASE],
      ['POST', BASE],
      ['GET', `${BASE}/${UNKNOWN_ID}/deliveries`],
      ['POST', `${BASE}/${UNKNOWN_ID}/pause`],
      ['POST', `${BASE}/${UNKNOWN_ID}/start`],
      ['PATCH', `${BASE}/${UNKNOWN_ID}`],
    ] as const) {
      const res = await gw.app.inject({ method, url, payload: {} });
      expect(`${method} ${url} ${res.statusCode}`).toBe(`${method} ${url} 401`);
    }
  });
});

describe('GET /api/admin/survey-campaigns', () => {
  it('answers an empty list before any campaign', async () => {
    const res = await call('GET', BASE);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it('lists campaigns newest first, deliveredCount adding the replies’ shard rows', async () => {
    const older = await create({ name: 'Older' });
    const newer = await create({ name: 'Newer', targetNewUsers: false });
    await gw.ds.query(
      `UPDATE "survey_campaigns" SET "delivered_count" = 3, "total_target_users" = 9 WHERE "id" = $1`,
      [older.id],
    );
    await gw.ds.query(
      `INSERT INTO "survey_campaign_delivered_shards" ("campaign_id", "shard", "delivered") VALUES ($1, 0, 2), ($1, 5, 1)`,
      [older.id],
    );
    const res = await call('GET', BASE);
    expect(res.statusCode).toBe(200);
    const list = res.json<SurveyCampaignDto[]>();
    expect(list.map((c) => c.name)).toEqual(['Newer', 'Older']);
    expect(list[1]).toMatchObject({ id: older.id, deliveredCount: 6, totalTargetUsers: 9 });
    expect(list[0]).toMatchObject({
      id: newer.id,
      status: 'live',
      deliveredCount: 0,
      totalTargetUsers: 0,
      targetNewUsers: false,
      targetExistingUsers: true,
    });
  });
});

describe('POST /api/admin/survey-campaigns', () => {
  it('creates a live campaign starting now, both audiences on by default, and tells the scheduler', async () => {
    const before = Date.now();
    const res = await call('POST', BASE, {
      name: '  Spring check-in ',
      surveyUrl: 'https://forms.example.com/spring',
      endDate: new Date(Date.now() + 30 * DAY).toISOString(),
    });
    expect(res.statusCode).toBe(201);
    const { success, campaign } = res.json<{ success: boolean; campaign: SurveyCampaignDto }>();
    expect(success).toBe(true);
    expect(campaign).toMatchObject({
      name: 'Spring check-in',
      surveyUrl: 'https://forms.example.com/spring',
      status: 'live',
      deliveredCount: 0,
      totalTargetUsers: 0,
      targetNewUsers: true,
      targetExistingUsers: true,
    });
    expect(Date.parse(campaign.startDate)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(campaign.startDate)).toBeLessThanOrEqual(Date.now() + 1000);
    expect(Date.parse(campaign.endDate!)).toBeGreaterThan(Date.now() + 29 * DAY);
    expect(await lifecycleJobs()).toContainEqual({ campaignId: campaign.id });
  });

  it('reads a date-only end date as the end of that day (UTC) and no end date as open-ended', async () => {
    const dated = await create({ endDate: '2099-12-31' });
    expect(dated.endDate).toBe('2099-12-31T23:59:59.999Z');
    expect((await create({ endDate: '' })).endDate).toBeNull();
    expect((await create({ endDate: null })).endDate).toBeNull();
    expect((await create({})).endDate).toBeNull();
  });

  it('keeps the survey URL SMS-safe', async () => {
    const campaign = await create({ surveyUrl: 'https://forms.example.com/é`s?q=a b' });
    expect(campaign.surveyUrl).toBe('https://forms.example.com/%C3%A9%60s?q=a%20b');
  });

  it.each([
    ['no name', { name: undefined }, 'Please enter a campaign name'],
    ['a blank name', { name: '   ' }, 'Please enter a campaign name'],
    ['no survey URL', { surveyUrl: undefined }, 'Please enter a survey URL'],
    ['a blank survey URL', { surveyUrl: ' ' }, 'Please enter a survey URL'],
    [
      'a survey URL that is not http(s)',
      { surveyUrl: 'ftp://forms.example.com/x' },
      'surveyUrl: must be an http(s) URL',
    ],
    ['text for a URL', { surveyUrl: 'forms' }, 'surveyUrl: must be an http(s) URL'],
    [
      'a URL too long for an SMS',
      { surveyUrl: `https://forms.example.com/${'x'.repeat(200)}` },
      'surveyUrl: must be at most 200 characters (it is sent by SMS)',
    ],
    ['an end date in the past', { endDate: '2020-01-01' }, 'endDate: must not be in the past'],
    [
      'an end date-time a minute ago',
      { endDate: new Date(Date.now() - 60_000).toISOString() },
      'endDate: must not be in the past',
    ],
    [
      'an end date that is no date',
      { endDate: 'next week' },
      'endDate: must be a date (YYYY-MM-DD) or a date-time',
    ],
    [
      'no audience',
      { targetNewUsers: false, targetExistingUsers: false },
      'Please choose at least one target audience',
    ],
    [
      'an audience switch that is not a boolean',
      { targetNewUsers: 'yes' },
      'targetNewUsers: must be true or false',
    ],
    ['a name too long', { name: 'n'.repeat(201) }, 'name: must be at most 200 characters'],
  ])('refuses %s with a 400', async (_what, change, message) => {
    const body: Record<string, unknown> = {
      name: 'Spring check-in',
      surveyUrl: 'https://forms.example.com/spring',
      ...change,
    };
    for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
    const res = await call('POST', BASE, body);
    expect(errorOf(res)).toEqual({ status: 400, message });
    expect(await gw.ds.query(`SELECT 1 FROM "survey_campaigns"`)).toEqual([]);
  });

  it('names both missing fields at once, and refuses a body that is not an object', async () => {
    expect(errorOf(await call('POST', BASE, {}))).toEqual({
      status: 400,
      message: 'Please enter a campaign name; Please enter a survey URL',
    });
    const res = await gw.app.inject({
      method: 'POST',
      url: BASE,
      headers: { cookie: gw.cookie, 'content-type': 'application/json' },
      payload: '[1]',
    });
    expect(errorOf(res)).toEqual({ status: 400, message: 'The body must be a JSON object' });
  });
});

describe('POST /api/admin/survey-campaigns/{id}/pause and /start', () => {
  it('pauses a live campaign and resumes it, telling the scheduler on resume', async () => {
    const campaign = await create();
    await gw.app.get(JobQueues).queue('survey.lifecycle').obliterate({ force: true });

    const paused = await call('POST', `${BASE}/${campaign.id}/pause`);
    expect(paused.statusCode).toBe(200);
    expect(paused.json()).toMatchObject({ success: true, campaign: { id: campaign.id, status: 'paused' } });
    expect((await call('GET', BASE)).json()).toMatchObject([{ status: 'paused' }]);

    const resumed = await call('POST', `${BASE}/${campaign.id}/start`);
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json()).toMatchObject({ success: true, campaign: { id: campaign.id, status: 'live' } });
    expect(await lifecycleJobs()).toContainEqual({ campaignId: campaign.id });
  });

  it('refuses every other transition with a 409 and the reason', async () => {
    const live = await create();
    const paused = await insertCampaign({ status: 'paused' });
    const scheduled = await insertCampaign({ status: 'scheduled', startDate: new Date(Date.now() + DAY) });
    const completed = await insertCampaign({ status: 'completed', endDate: new Date(Date.now() - DAY) });
    const pausedEnded = await insertCampaign({
      status: 'paused',
      endDate: new Date('2025-06-30T12:00:00Z'),
      startDate: new Date('2025-06-01T00:00:00Z'),
    });
    const cases: Array<[string, 'pause' | 'start', string]> = [
      [live.id, 'start', 'Only a paused campaign can be resumed; this one is live.'],
      [paused, 'pause', 'Only a live campaign can be paused; this one is paused.'],
      [scheduled, 'pause', 'Only a live campaign can be paused; this one is scheduled.'],
      [scheduled, 'start', 'Only a paused campaign can be resumed; this one is scheduled.'],
      [completed, 'pause', 'Only a live campaign can be paused; this one is completed.'],
      [completed, 'start', 'Only a paused campaign can be resumed; this one is completed.'],
      [pausedEnded, 'start', 'This campaign ended on 2025-06-30; it cannot be resumed.'],
    ];
    for (const [id, action, message] of cases) {
      expect(errorOf(await call('POST', `${BASE}/${id}/${action}`))).toEqual({ status: 409, message });
    }
    const statuses = await gw.ds.query<Array<{ id: string; status: string }>>(
      `SELECT "id", "status" FROM "survey_campaigns"`,
    );
    expect(Object.fromEntries(statuses.map((s) => [s.id, s.status]))).toEqual({
      [live.id]: 'live',
      [paused]: 'paused',
      [scheduled]: 'scheduled',
      [completed]: 'completed',
      [pausedEnded]: 'paused',
    });
  });

  it('answers 404 for an unknown campaign and 400 for an id that is not a UUID', async () => {
    for (const action of ['pause', 'start']) {
      expect(errorOf(await call('POST', `${BASE}/${UNKNOWN_ID}/${action}`))).toEqual({
        status: 404,
        message: 'Survey campaign not found.',
      });
      expect(errorOf(await call('POST', `${BASE}/not-an-id/${action}`))).toEqual({
        status: 400,
        message: 'Campaign id must be a UUID',
      });
    }
  });
});

describe('PATCH /api/admin/survey-campaigns/{id}', () => {
  it('changes the survey URL', async () => {
    const campaign = await create();
    const res = await call('PATCH', `${BASE}/${campaign.id}`, {
      surveyUrl: ' https://forms.example.com/v2 ',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      campaign: { surveyUrl: 'https://forms.example.com/v2' },
    });
    expect((await call('GET', BASE)).json()).toMatchObject([{ surveyUrl: 'https://forms.example.com/v2' }]);
  });

  it('refuses a bad URL, a missing one, an unknown campaign and a bad id', async () => {
    const campaign = await create();
    expect(errorOf(await call('PATCH', `${BASE}/${campaign.id}`, { surveyUrl: 'mailto:a@b.c' }))).toEqual({
      status: 400,
      message: 'surveyUrl: must be an http(s) URL',
    });
    expect(errorOf(await call('PATCH', `${BASE}/${campaign.id}`, {}))).toEqual({
      status: 400,
      message: 'Please enter a survey URL',
    });
    expect(
      errorOf(await call('PATCH', `${BASE}/${UNKNOWN_ID}`, { surveyUrl: 'https://forms.example.com/x' })),
    ).toEqual({ status: 404, message: 'Survey campaign not found.' });
    expect(
      errorOf(await call('PATCH', `${BASE}/nope`, { surveyUrl: 'https://forms.example.com/x' })),
    ).toEqual({
      status: 400,
      message: 'Campaign id must be a UUID',
    });
    expect((await call('GET', BASE)).json()).toMatchObject([
      { surveyUrl: 'https://forms.example.com/spring' },
    ]);
  });
});

describe('GET /api/admin/survey-campaigns/{id}/deliveries', () => {
  const addUser = async (phone: string): Promise<string> => {
    const [row] = await gw.ds.query<Array<{ id: string }>>(
      `INSERT INTO "users" ("phone_number") VALUES ($1) RETURNING "id"`,
      [phone],
    );
    return row!.id;
  };

  it('lists the latest delivered first, then the pending ones, with the total in X-Total-Count', async () => {
    const campaign = await create();
    const early = await addUser('+15035550101');
    const late = await addUser('+15035550102');
    const pending = await addUser('+15035550103');
    const [conversation] = await gw.ds.query<Array<{ id: string }>>(
      `INSERT INTO "conversations" ("user_id") VALUES ($1) RETURNING "id"`,
      [late],
    );
    await gw.ds.query(
      `INSERT INTO "survey_deliveries" ("campaign_id", "user_id", "conversation_id", "delivered_at") VALUES
         ($1, $2, NULL, now() - interval '2 days'), ($1, $3, $4, now() - interval '1 hour'), ($1, $5, NULL, NULL)`,
      [campaign.id, early, late, conversation!.id, pending],
    );
    await gw.ds.query(`UPDATE "survey_campaigns" SET "total_target_users" = 3 WHERE "id" = $1`, [
      campaign.id,
    ]);

    const res = await call('GET', `${BASE}/${campaign.id}/deliveries`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('3');
    const list = res.json<SurveyDeliveryDto[]>();
    expect(list.map((d) => d.phoneNumber)).toEqual(['+15035550102', '+15035550101', '+15035550103']);
    expect(list[0]).toMatchObject({ conversationId: conversation!.id });
    expect(Date.parse(list[0]!.deliveredAt!)).toBeGreaterThan(Date.now() - 2 * 60 * 60 * 1000);
    expect(list[2]).toMatchObject({ deliveredAt: null, conversationId: null });
    expect(Object.keys(list[0]!).sort()).toEqual(['conversationId', 'deliveredAt', 'id', 'phoneNumber']);

    const limited = await call('GET', `${BASE}/${campaign.id}/deliveries?limit=2`);
    expect(limited.json<SurveyDeliveryDto[]>().map((d) => d.phoneNumber)).toEqual([
      '+15035550102',
      '+15035550101',
    ]);
    expect(limited.headers['x-total-count']).toBe('3');
  });

  it('answers an empty list for a campaign with no deliveries, 404 for an unknown one, 400 for bad input', async () => {
    const campaign = await create();
    const empty = await call('GET', `${BASE}/${campaign.id}/deliveries`);
    expect(empty.json()).toEqual([]);
    expect(empty.headers['x-total-count']).toBe('0');
    expect(errorOf(await call('GET', `${BASE}/${UNKNOWN_ID}/deliveries`))).toEqual({
      status: 404,
      message: 'Survey campaign not found.',
    });
    expect(errorOf(await call('GET', `${BASE}/42/deliveries`))).toEqual({
      status: 400,
      message: 'Campaign id must be a UUID',
    });
    expect(errorOf(await call('GET', `${BASE}/${campaign.id}/deliveries?limit=0`))).toEqual({
      status: 400,
      message: 'limit: must be a whole number from 1 to 1000',
    });
  });
});
