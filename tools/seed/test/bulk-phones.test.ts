// The benchmarks' numbers: the bulk seeds write only numbers under area codes no phone has, the SQL
// that makes them in Postgres agrees with unassignedPhoneAt, and a seed made with real area codes
// is never reused.
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { SEED_ZIPS } from '../demo-data';
import { BULK_PHONES, databaseUrl, seedUsersOnly, seededDatabase, sizeFor } from '../bulk';
import {
  UNASSIGNED_AREA_CODES,
  UNASSIGNED_PHONE_CAPACITY,
  UNASSIGNED_PHONE_PATTERN,
  unassignedPhoneAt,
  unassignedPhoneSql,
} from '../phones';

const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const query = async <T extends Record<string, unknown>>(url: string, sql: string, values: unknown[] = []) => {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
};

describe('unassignedPhoneAt', () => {
  it('uses the 37X and 96X area codes, which no demo ZIP (a real place) has', () => {
    expect(UNASSIGNED_AREA_CODES).toEqual([
      ...['370', '371', '372', '373', '374', '375', '376', '377', '378', '379'],
      ...['960', '961', '962', '963', '964', '965', '966', '967', '968', '969'],
    ]);
    const real = new Set(SEED_ZIPS.flatMap((z) => z.areaCodes));
    expect(UNASSIGNED_AREA_CODES.filter((code) => real.has(code))).toEqual([]);
  });

  it('gives a million users a million different unassigned numbers', () => {
    const phones = new Set<string>();
    for (let i = 0; i < 1_000_000; i += 1) phones.add(unassignedPhoneAt(i));
    expect(phones.size).toBe(1_000_000);
    for (const i of [0, 1, 19, 20, 999_999, UNASSIGNED_PHONE_CAPACITY - 1])
      expect(unassignedPhoneAt(i)).toMatch(UNASSIGNED_PHONE_PATTERN);
    expect(unassignedPhoneAt(0)).toBe('+13702000000');
    expect(unassignedPhoneAt(21)).toBe('+13712007919');
  });

  it('refuses an index outside its numbers', () => {
    expect(() => unassignedPhoneAt(-1)).toThrow(RangeError);
    expect(() => unassignedPhoneAt(1.5)).toThrow(RangeError);
    expect(() => unassignedPhoneAt(UNASSIGNED_PHONE_CAPACITY)).toThrow('outside 0..159999999');
  });

  it('makes the same numbers in SQL as in TypeScript', async () => {
    const indexes = [1, 2, 20, 21, 12_345, 999_999, 1_000_000, 123_456_789, UNASSIGNED_PHONE_CAPACITY - 1];
    const rows = await query<{ phone: string }>(
      adminUrl,
      `SELECT ${unassignedPhoneSql('i')} AS phone FROM unnest($1::bigint[]) WITH ORDINALITY AS t(i, n) ORDER BY n`,
      [indexes],
    );
    expect(rows.map((r) => r.phone)).toEqual(indexes.map(unassignedPhoneAt));
  });
});

describe('the bulk seeds', () => {
  // Named as the test databases are, so a run that dies leaves nothing the stale sweep keeps.
  const database = `sprout_t_${Date.now().toString(36)}_${randomBytes(5).toString('hex')}`;
  const url = databaseUrl(adminUrl, database);
  const logged: string[] = [];
  const log = (line: string) => logged.push(line);

  afterAll(async () => {
    await query(adminUrl, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  });

  it('seeds users-only with unassigned numbers, and seeds again over numbers of an earlier scheme', async () => {
    await seedUsersOnly({ adminUrl, database, users: 500, reseed: false, log });
    const phones = await query<{ phone_number: string }>(
      url,
      `SELECT phone_number FROM users ORDER BY created_at`,
    );
    expect(phones.map((r) => r.phone_number)).toEqual(
      Array.from({ length: 500 }, (_, i) => unassignedPhoneAt(i + 1)),
    );

    await query(url, `UPDATE bench.meta SET value = value - 'phones' WHERE key = 'users-only-seed'`);
    logged.length = 0;
    await seedUsersOnly({ adminUrl, database, users: 500, reseed: false, log });
    expect(logged[0]).toMatch(/^seeding 500 users/);
    logged.length = 0;
    await seedUsersOnly({ adminUrl, database, users: 500, reseed: false, log });
    expect(logged).toEqual([`reusing ${database}: 500 users`]);
  }, 120_000);

  it('seeds users, conversations and messages with unassigned numbers, each area code in one region', async () => {
    // A seed recorded without its numbers' scheme (made when they had real area codes) is not reused.
    await query(url, `INSERT INTO bench.meta (key, value) VALUES ('seed', $1)`, [
      JSON.stringify({ seededAt: new Date().toISOString(), size: sizeFor(0.00001) }),
    ]);
    const { state } = await seededDatabase({
      adminUrl,
      database,
      size: sizeFor(0.00001),
      reseed: false,
      analyse: [],
      log,
    });
    expect(logged).toContain(
      `${database} holds numbers with real area codes: seeding again with ${BULK_PHONES}`,
    );
    expect(state.phones).toBe(BULK_PHONES);
    const users = await query<{ phone_number: string; region: string; zip_code: string }>(
      url,
      `SELECT phone_number, region, zip_code FROM users`,
    );
    expect(users).toHaveLength(sizeFor(0.00001).users);
    for (const user of users) expect(user.phone_number).toMatch(UNASSIGNED_PHONE_PATTERN);
    const placeOfArea = new Map<string, string>();
    for (const user of users) {
      const area = user.phone_number.slice(2, 5);
      const place = `${user.region} ${user.zip_code}`;
      expect(placeOfArea.get(area) ?? place).toBe(place);
      placeOfArea.set(area, place);
    }
    // Users 1..10: the second to the eleventh area code, beside the seed's places in the same order.
    expect(placeOfArea.get(UNASSIGNED_AREA_CODES[1] ?? '')).toBe('Pacific Northwest 98101');
    expect(placeOfArea.get(UNASSIGNED_AREA_CODES[10] ?? '')).toBe('Central Texas 78701');

    logged.length = 0;
    await seededDatabase({ adminUrl, database, size: sizeFor(0.00001), reseed: false, analyse: [], log });
    expect(logged[0]).toMatch(new RegExp(`^reusing ${database} seeded`));
  }, 300_000);
});
