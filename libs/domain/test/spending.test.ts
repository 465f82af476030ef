import {
  SPENDING_LIMIT_SETTING,
  SpendLedger,
  type SpendSignals,
  isTimeZone,
  readSpendSnapshot,
  readSpendingLimit,
  setSetting,
  spendDay,
  spentSince,
} from '@sprout/domain';
import { truncateAll } from '@sprout/testing';
import { type LedgerCall, reserveSpend, settleSpend } from '../src/ledger/statements';
import { useTestDatabase } from './test-database';

const MINUTE = 60_000;
const CALL: LedgerCall = {
  messageId: null,
  userId: null,
  conversationId: null,
  purpose: 'reply',
  tier: 'primary',
  model: 'm',
  promptTokens: 0,
  completionTokens: 0,
  cost: 0,
  latencyMs: 12,
  error: null,
  isTestUser: false,
};

describe('spending day', () => {
  it('starts at midnight in the configured time zone', () => {
    const now = new Date('2026-07-04T05:30:00Z');
    expect(spendDay(now, 'UTC')).toEqual({ key: '2026-07-04', start: new Date('2026-07-04T00:00:00Z') });
    // 22:30 the day before in Los Angeles (PDT, UTC-7).
    expect(spendDay(now, 'America/Los_Angeles')).toEqual({
      key: '2026-07-03',
      start: new Date('2026-07-03T07:00:00Z'),
    });
    expect(spendDay(now, 'Asia/Kolkata')).toEqual({
      key: '2026-07-04',
      start: new Date('2026-07-03T18:30:00Z'),
    });
    expect(spendDay(now, 'Asia/Kathmandu').start).toEqual(new Date('2026-07-03T18:15:00Z'));
  });

  it('keeps the offset in force at midnight on a daylight saving day', () => {
    // 8 March 2026: Los Angeles moves from PST (UTC-8) to PDT (UTC-7) at 02:00.
    const afternoon = new Date('2026-03-08T22:00:00Z'); // 15:00 PDT
    expect(spendDay(afternoon, 'America/Los_Angeles').start).toEqual(new Date('2026-03-08T08:00:00Z'));
    // 1 November 2026: back to PST at 02:00; midnight was still PDT.
    expect(spendDay(new Date('2026-11-01T20:00:00Z'), 'America/Los_Angeles').start).toEqual(
      new Date('2026-11-01T07:00:00Z'),
    );
  });

  it('answers each instant of a day with that day, from the last midnight to the next', () => {
    // 1 November 2026 in Los Angeles is 25 hours long: 07:00Z to 08:00Z the next morning.
    const zone = 'America/Los_Angeles';
    const instants = ['2026-11-01T07:00:00Z', '2026-11-01T20:00:00Z', '2026-11-02T07:59:59.999Z'];
    for (const at of instants)
      expect(spendDay(new Date(at), zone)).toEqual({
        key: '2026-11-01',
        start: new Date('2026-11-01T07:00:00Z'),
      });
    expect(spendDay(new Date('2026-11-02T08:00:00Z'), zone)).toEqual({
      key: '2026-11-02',
      start: new Date('2026-11-02T08:00:00Z'),
    });
    // Back in time after a later day was asked.
    expect(spendDay(new Date('2026-11-01T06:59:59.999Z'), zone).key).toBe('2026-10-31');
    expect(spendDay(new Date('2026-11-01T12:00:00Z'), zone).key).toBe('2026-11-01');
  });

  it('knows IANA time zones', () => {
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});

describe('spend ledger and reservations', () => {
  const ds = useTestDatabase(async (dataSource) => {
    await truncateAll(dataSource);
    await dataSource.query('DELETE FROM spend_reservations');
  });

  const call = (cost: number, at: Date) =>
    ds().query<Array<{ id: string }>>(
      `INSERT INTO llm_calls (purpose, tier, model, cost, created_at) VALUES ('reply', 'primary', 'm', $1, $2) RETURNING id`,
      [cost, at],
    );

  it('sums every llm_calls row since a moment, whatever its writer, through inserts, updates and deletes', async () => {
    const start = new Date('2026-07-04T00:00:00Z');
    await call(1.25, new Date(start.getTime() - MINUTE));
    const [kept] = await call(2, new Date(start.getTime() + MINUTE));
    await call(0.000001, new Date(start.getTime() + 20 * MINUTE));
    const [dropped] = await call(4, new Date(start.getTime() + 3 * 60 * MINUTE));
    expect(await spentSince(ds().manager, start)).toBeCloseTo(6.000001, 6);
    await ds().query('UPDATE llm_calls SET cost = 3 WHERE id = $1', [kept?.id]);
    await ds().query('DELETE FROM llm_calls WHERE id = $1', [dropped?.id]);
    expect(await spentSince(ds().manager, start)).toBeCloseTo(3.000001, 6);
    // A day starting off the quarter hour reads the partial quarter from llm_calls itself.
    expect(await spentSince(ds().manager, new Date(start.getTime() + 10 * MINUTE))).toBeCloseTo(0.000001, 6);
    await ds().query('TRUNCATE llm_calls');
    expect(await spentSince(ds().manager, start)).toBe(0);
  });

  it('admits calls while spent plus reserved is under the limit, racing callers included', async () => {
    await setSetting(ds().manager, SPENDING_LIMIT_SETTING, 1);
    const since = new Date(Date.now() - 60 * MINUTE);
    await call(0.5, new Date());
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => reserveSpend(ds(), { amount: 0.2, since, ttlMs: 60_000 })),
    );
    // 0.5 spent: three reservations of 0.2 take it to 1.1; the others find the limit reached.
    const admitted = outcomes.filter((o) => o.reservation !== null);
    expect(admitted).toHaveLength(3);
    expect(await readSpendSnapshot(ds().manager, since)).toEqual({
      spent: 0.5,
      held: 0.6,
      limit: 1,
    });

    // Settling one with its real cost frees the difference.
    const first = admitted[0]?.reservation;
    if (!first) throw new Error('no reservation');
    await settleSpend(ds().manager, first.id, { ...CALL, cost: 0.05 });
    expect(await readSpendSnapshot(ds().manager, since)).toEqual({
      spent: 0.55,
      held: 0.4,
      limit: 1,
    });
    expect((await reserveSpend(ds(), { amount: 0.2, since, ttlMs: 60_000 })).reservation).not.toBeNull();
    expect((await reserveSpend(ds(), { amount: 0, since, ttlMs: 60_000 })).reservation).toBeNull();
  });

  it('reads the limit setting in reserve_spend() exactly as readSpendingLimit does', async () => {
    const since = new Date(Date.now() - MINUTE);
    for (const stored of [
      30,
      0,
      12.5,
      '7',
      ' 2.5 ',
      '',
      'abc',
      null,
      true,
      false,
      -3,
      '-3',
      '1e2',
      { a: 1 },
    ]) {
      await setSetting(ds().manager, SPENDING_LIMIT_SETTING, stored);
      const outcome = await reserveSpend(ds(), { amount: 0, since, ttlMs: 60_000 });
      expect({ stored, limit: outcome.limit }).toEqual({
        stored,
        limit: await readSpendingLimit(ds().manager),
      });
    }
    await ds().query('DELETE FROM settings');
    expect((await reserveSpend(ds(), { amount: 0, since, ttlMs: 60_000 })).limit).toBe(50);
  });

  it('settles a call in one statement: its row written, its reservation dropped, the spend including it', async () => {
    await setSetting(ds().manager, SPENDING_LIMIT_SETTING, 2);
    const since = new Date(Date.now() - 60 * MINUTE);
    await call(0.5, new Date());
    const reserved = (await reserveSpend(ds(), { amount: 0.3, since, ttlMs: 60_000 })).reservation;
    if (!reserved) throw new Error('no reservation');
    const settled = await settleSpend(
      ds().manager,
      reserved.id,
      { ...CALL, promptTokens: 10, completionTokens: 5, cost: 0.25 },
      since,
    );
    expect(settled).toEqual({ id: expect.any(String), spent: 0.75, limit: 2 });
    expect(await readSpendSnapshot(ds().manager, since)).toEqual({ spent: 0.75, held: 0, limit: 2 });
    const [row] = await ds().query<Array<{ total_tokens: number; cost: string }>>(
      'SELECT total_tokens, cost FROM llm_calls WHERE id = $1',
      [settled.id],
    );
    expect(row).toEqual({ total_tokens: 15, cost: '0.250000' });
  });

  it('lets the reservation of a call that never settled lapse', async () => {
    await setSetting(ds().manager, SPENDING_LIMIT_SETTING, 1);
    const since = new Date(Date.now() - MINUTE);
    const lost = await reserveSpend(ds(), { amount: 5, since, ttlMs: 200 });
    expect(lost.reservation).not.toBeNull();
    expect((await reserveSpend(ds(), { amount: 0.1, since, ttlMs: 60_000 })).reservation).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await reserveSpend(ds(), { amount: 0.1, since, ttlMs: 60_000 })).reservation).not.toBeNull();
  });

  it('announces 80% and 100% once a day and counts refusals; writes rows that cost nothing without a reservation', async () => {
    await setSetting(ds().manager, SPENDING_LIMIT_SETTING, 1);
    const claimed = new Set<string>();
    const heard: string[] = [];
    const signals: SpendSignals = {
      spend: (spent, limit) => heard.push(`spend ${spent} of ${limit}`),
      refused: (purpose) => heard.push(`refused ${purpose}`),
      claimOnce: (key) => Promise.resolve(!claimed.has(key) && Boolean(claimed.add(key))),
      crossed: (threshold, message) => heard.push(`${threshold}: ${message}`),
    };
    const ledger = new SpendLedger(ds(), { timeZone: 'UTC', signals });
    const request = { purpose: 'summary' as const, worstCase: 0.1, deadlineMs: 1_000 };
    const day = spendDay(new Date(), 'UTC').key;

    await call(0.5, new Date());
    await call(0.35, new Date());
    const admitted = await ledger.reserve(request);
    expect(admitted).not.toBeNull();
    await ledger.settle(admitted!, { ...CALL, purpose: 'summary', cost: 0.2 });
    expect(await ledger.reserve(request)).toBeNull();
    expect(await ledger.reserve(request)).toBeNull();
    expect(heard).toEqual([
      'spend 0.85 of 1',
      `80: Daily AI spend crossed 80% of the limit on ${day} (UTC): $0.8500 of $1.00 (85.0%)`,
      'spend 1.05 of 1',
      `100: Daily AI spending limit reached on ${day} (UTC): $1.05 of $1.00 (105.0%); until midnight replies answer from templates, summaries are written by rules and photos are described offline`,
      'spend 1.05 of 1',
      'refused summary',
      'spend 1.05 of 1',
      'refused summary',
    ]);

    // A row that cost nothing needs no reservation: written as it is, in the caller's transaction.
    const id = await ds().transaction((manager) =>
      ledger.recordUnpaid({ ...CALL, purpose: 'image', tier: 'template', model: null }, manager),
    );
    expect(await ds().query(`SELECT purpose, tier, model, cost FROM llm_calls WHERE id = $1`, [id])).toEqual([
      { purpose: 'image', tier: 'template', model: null, cost: '0.000000' },
    ]);
  });

  it('announces 80% at a refused reservation when calls in flight took the rest of the budget', async () => {
    await setSetting(ds().manager, SPENDING_LIMIT_SETTING, 1);
    const crossed: string[] = [];
    const claimed = new Set<string>();
    const ledger = new SpendLedger(ds(), {
      timeZone: 'UTC',
      signals: {
        spend: () => undefined,
        refused: () => undefined,
        claimOnce: (key) => Promise.resolve(!claimed.has(key) && Boolean(claimed.add(key))),
        crossed: (threshold, message) => crossed.push(`${threshold}: ${message}`),
      },
    });
    await call(0.9, new Date());
    const held = await reserveSpend(ds(), {
      amount: 0.2,
      since: spendDay(new Date(), 'UTC').start,
      ttlMs: 60_000,
    });
    expect(held.reservation).not.toBeNull();
    expect(await ledger.reserve({ purpose: 'image', worstCase: 0.01, deadlineMs: 1_000 })).toBeNull();
    expect(crossed).toEqual([
      expect.stringMatching(
        /^80: Daily AI spend crossed 80% of the limit on .*: \$0\.9000 of \$1\.00 \(90\.0%\)$/,
      ),
      expect.stringMatching(
        /^100: Daily AI spending limit reached on .*: \$0\.9000 of \$1\.00 \(90\.0%\) with \$0\.2000 held by calls in flight; /,
      ),
    ]);
  });
});
