import { execFileSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  configureZoneTable,
  dayOfYear,
  frostDatesFor,
  frostDatesForZone,
  frostReferenceForZip,
  frostReferences,
  hardinessZoneForZip,
  lookupZip,
  NEAREST_ZONE_MAX_KM,
  placeAreaForZip,
  placeAreaZips,
  normalizeState,
  normalizeZone,
  regionForState,
  seasonFor,
  SHIPPED_FROST_FILES,
  SHIPPED_ZONE_TABLE,
  stateName,
  zipForCityState,
  zoneTablePath,
  zoneTableZips,
  zoneTemperatureRange,
} from '@sprout/gardening';
import { zipcodeEntries, zipcodeEntry, type ZipcodesEntry } from '../src/places/zipcodes-data';

const DERIVE_SCRIPT = path.resolve(__dirname, '../scripts/derive-zones.mjs');

/**
 * The USDA CSV (phzm_us_zipcode_2023.csv layout) of the zone table in use, rebuilt from lookups,
 * without the ZIPs of the Alaska, Hawaii, Puerto Rico and Virgin Islands areas file.
 */
function tableAsUsdaCsv(): string {
  const areaZips = new Set(placeAreaZips());
  const rows = zoneTableZips()
    .filter((zip) => !areaZips.has(zip))
    .sort()
    .map((zip) => {
      const zone = hardinessZoneForZip(zip);
      return `${zip},${zone?.zone},${zone?.trange},${zone?.zone}: ${zone?.trange}`;
    });
  return `zipcode,zone,trange,zonetitle\n${rows.join('\n')}\n`;
}

afterEach(() => configureZoneTable(undefined));

describe('lookupZip', () => {
  it('returns city, state and coordinates for a US ZIP', () => {
    expect(lookupZip('97201')).toEqual({
      zip: '97201',
      city: 'Portland',
      state: 'OR',
      latitude: 45.5078,
      longitude: -122.6897,
    });
  });

  it('accepts ZIP+4 and keeps leading zeros', () => {
    expect(lookupZip('02139-4307')?.city).toBe('Cambridge');
    expect(lookupZip('00901')?.state).toBe('PR');
  });

  it('rejects unknown, malformed and foreign codes', () => {
    expect(lookupZip('00000')).toBeNull();
    expect(lookupZip('1234')).toBeNull();
    expect(lookupZip('M5V')).toBeNull();
    expect(lookupZip('97201x')).toBeNull();
    expect(lookupZip('')).toBeNull();
  });
});

describe('zipForCityState', () => {
  it('gives a central ZIP of the city, with state as code or name, any case', () => {
    const portland = zipForCityState('Portland', 'OR');
    expect(lookupZip(portland ?? '')).toMatchObject({ city: 'Portland', state: 'OR' });
    expect(portland).toMatch(/^972/);
    expect(zipForCityState('portland', 'maine')).toMatch(/^041/);
    expect(zipForCityState('Austin', 'tx')).toMatch(/^787/);
    expect(zipForCityState('Hilo', 'HI')).toBe('96720');
  });

  it('understands St./Ft. abbreviations and hyphens', () => {
    expect(zipForCityState('St. Louis', 'MO')).toMatch(/^631/);
    expect(zipForCityState('Ft Collins', 'Colorado')).toMatch(/^805/);
    expect(zipForCityState('Winston-Salem', 'NC')).toMatch(/^271/);
  });

  it('returns null for unknown cities or states', () => {
    expect(zipForCityState('Atlantis', 'FL')).toBeNull();
    expect(zipForCityState('Portland', 'XX')).toBeNull();
  });
});

describe('states and regions', () => {
  it('normalises codes, names, dotted and informal abbreviations', () => {
    expect(normalizeState('or')).toBe('OR');
    expect(normalizeState('N.C.')).toBe('NC');
    expect(normalizeState('New Mexico')).toBe('NM');
    expect(normalizeState('Tenn.')).toBe('TN');
    expect(normalizeState('Ontario')).toBeNull();
    expect(stateName('tx')).toBe('Texas');
  });

  it('maps every state to a gardening region', () => {
    expect(regionForState('WA')).toBe('Pacific Northwest');
    expect(regionForState('oregon')).toBe('Pacific Northwest');
    expect(regionForState('MA')).toBe('Northeast');
    expect(regionForState('GA')).toBe('Southeast');
    expect(regionForState('IA')).toBe('Midwest');
    expect(regionForState('AZ')).toBe('Southwest');
    expect(regionForState('CO')).toBe('Mountain West');
    expect(regionForState('CA')).toBe('California');
    expect(regionForState('Narnia')).toBeNull();
    for (const code of ['AL', 'AK', 'DC', 'HI', 'PR', 'WY', 'TX', 'VA'])
      expect(regionForState(code)).not.toBeNull();
  });
});

describe('seasonFor', () => {
  it('uses meteorological seasons', () => {
    expect(seasonFor(new Date(Date.UTC(2025, 0, 15)))).toBe('winter');
    expect(seasonFor(new Date(Date.UTC(2025, 2, 1)))).toBe('spring');
    expect(seasonFor(new Date(Date.UTC(2025, 5, 30)))).toBe('summer');
    expect(seasonFor(new Date(Date.UTC(2025, 8, 1)))).toBe('fall');
    expect(seasonFor(new Date(Date.UTC(2025, 11, 1)))).toBe('winter');
  });

  it("goes by the UTC month, whatever the server's time zone", () => {
    expect(seasonFor(new Date('2025-02-28T23:30:00Z'))).toBe('winter');
    expect(seasonFor(new Date('2025-03-01T00:30:00Z'))).toBe('spring');
    expect(seasonFor(new Date('2025-11-30T23:59:59Z'))).toBe('fall');
    expect(seasonFor(new Date('2025-12-01T00:00:00Z'))).toBe('winter');
  });

  it('flips in the southern hemisphere', () => {
    expect(seasonFor(new Date(Date.UTC(2025, 6, 1)), -33.9)).toBe('winter');
    expect(seasonFor(new Date(Date.UTC(2025, 6, 1)), 45)).toBe('summer');
  });
});

describe('frostDatesForZone', () => {
  const halves = [
    '1a',
    '1b',
    '2a',
    '2b',
    '3a',
    '3b',
    '4a',
    '4b',
    '5a',
    '5b',
    '6a',
    '6b',
    '7a',
    '7b',
    '8a',
    '8b',
    '9a',
    '9b',
    '10a',
  ];

  it('gives MM-DD dates that get earlier (spring) and later (fall) as zones warm', () => {
    let previous: { spring: string; fall: string; days: number } | null = null;
    for (const zone of halves) {
      const frost = frostDatesForZone(zone);
      expect(frost?.lastSpringFrost).toMatch(/^\d{2}-\d{2}$/);
      expect(frost?.firstFallFrost).toMatch(/^\d{2}-\d{2}$/);
      if (!frost) continue;
      if (previous) {
        expect(frost.lastSpringFrost < previous.spring).toBe(true);
        expect(frost.firstFallFrost > previous.fall).toBe(true);
        expect(frost.growingSeasonDays).toBeGreaterThan(previous.days);
      }
      previous = { spring: frost.lastSpringFrost, fall: frost.firstFallFrost, days: frost.growingSeasonDays };
    }
  });

  it('matches commonly published dates', () => {
    expect(frostDatesForZone('6a')).toEqual({
      lastSpringFrost: '04-17',
      firstFallFrost: '10-20',
      growingSeasonDays: 186,
    });
    expect(frostDatesForZone('8b')?.lastSpringFrost).toBe('03-14');
  });

  it('takes the middle of the halves for a whole zone and accepts "Zone 7B"', () => {
    const whole = frostDatesForZone('7');
    expect(whole?.lastSpringFrost).toBe('03-31');
    // Zone 10 may be 10a, which has a frost in most winters.
    expect(frostDatesForZone('10')).toEqual(frostDatesForZone('10a'));
    expect(frostDatesForZone('Zone 7B')).toEqual(frostDatesForZone('7b'));
  });

  it('is frost-free from zone 10b (the coldest night of an average winter stays above 35 F)', () => {
    for (const zone of ['10b', '11a', '11b', '12a', '13b', '11']) {
      expect(frostDatesForZone(zone)).toEqual({
        lastSpringFrost: 'frost-free',
        firstFallFrost: 'frost-free',
        growingSeasonDays: 365,
      });
    }
  });

  it('returns null for anything that is not a zone', () => {
    expect(frostDatesForZone('14a')).toBeNull();
    expect(frostDatesForZone('0')).toBeNull();
    expect(frostDatesForZone('banana')).toBeNull();
    expect(normalizeZone(' zone 9 a ')).toBe('9a');
    expect(normalizeZone('9c')).toBeNull();
    expect(normalizeZone('zone 9a')).toBe('9a');
  });
});

/**
 * A place's own frost dates differ from its zone's by weeks at most: a spring frost from three weeks
 * earlier to 80 days later (Bend, 6b, frosts into late June), a fall frost from two months earlier to
 * a month later, and some season between them.
 */
function expectNearItsZone(
  what: string,
  zone: string | undefined,
  frost: readonly string[] | 'frost-free' | undefined,
): void {
  const byZone = zone ? frostDatesForZone(zone) : null;
  if (!frost || frost === 'frost-free' || !byZone || byZone.lastSpringFrost === 'frost-free') {
    throw new Error(`${what}: no frost dates, or a zone (${zone}) without them`);
  }
  const spring = dayOfYear(frost[0] ?? '');
  const fall = dayOfYear(frost[1] ?? '');
  const springLater = spring - dayOfYear(byZone.lastSpringFrost);
  const fallLater = fall - dayOfYear(byZone.firstFallFrost);
  expect({
    what,
    spring: springLater >= -21 && springLater <= 80,
    fall: fallLater >= -60 && fallLater <= 30,
    season: fall - spring > 20,
  }).toEqual({ what, spring: true, fall: true, season: true });
}

describe('frost dates of reference towns (dry interior West, cold North, west of the Cascades, lake shores)', () => {
  it("gives a reference town its own dates, weeks later in spring than its zone's", () => {
    // Denver is 6a (Apr 17 elsewhere) with an early-May last frost; Boise 7a, about May 1.
    expect(frostDatesFor({ zipCode: '80202' })).toMatchObject({
      lastSpringFrost: '05-05',
      firstFallFrost: '10-05',
      source: 'shifted',
      place: 'Denver',
    });
    expect(frostDatesFor({ zipCode: '83702' })?.lastSpringFrost).toBe('04-30');
    expect(frostDatesFor({ zipCode: '87501' })?.lastSpringFrost).toBe('05-02');
    for (const town of frostReferences()) {
      expect(frostDatesFor({ zipCode: town.zip })).toMatchObject({
        lastSpringFrost: town.frost[0],
        firstFallFrost: town.frost[1],
      });
    }
  });

  it('moves every ZIP of the prefix by the same shift, so a colder zone stays later', () => {
    const evergreen = frostDatesFor({ zipCode: '80439' });
    const shift = dayOfYear(evergreen!.lastSpringFrost) - dayOfYear(frostDatesForZone('5b')!.lastSpringFrost);
    expect(shift).toBe(dayOfYear('05-05') - dayOfYear('04-17'));
    // A zone given with the ZIP takes the place's shift too; a zone alone is the zone's dates.
    expect(frostDatesFor({ zipCode: '80202', zone: '5b' })?.lastSpringFrost).toBe(evergreen?.lastSpringFrost);
    expect(frostDatesFor({ zone: '6a' })).toEqual({ ...frostDatesForZone('6a'), source: 'zone' });
  });

  it('leaves places outside it, and frost-free zones, with their zone dates', () => {
    for (const zip of ['60601', '55401', '85004', '30301']) {
      expect(frostDatesFor({ zipCode: zip })?.source).toBe('zone');
    }
    expect(frostReferenceForZip('84770')).toBeNull();
    expect(frostReferenceForZip('80202-1234')?.town).toBe('Denver');
  });

  it('gives the cold North its late spring frosts: Duluth is 5a but frosts into late May', () => {
    expect(frostDatesForZone('5a')?.lastSpringFrost).toBe('04-28');
    expect(frostDatesFor({ zipCode: '55802' })).toMatchObject({ lastSpringFrost: '05-20', place: 'Duluth' });
    expect(frostDatesFor({ zipCode: '04401' })?.lastSpringFrost).toBe('05-10');
  });

  it('west of the Cascades, gives the date warm crops go out, weeks after the last frost', () => {
    const seattle = frostDatesFor({ zipCode: '98101' });
    expect(seattle).toMatchObject({ lastSpringFrost: '03-08', warmCrops: '05-25', place: 'Seattle' });
    expect(frostDatesFor({ zipCode: '97201' })?.warmCrops).toBe('05-15');
    // Elsewhere warm crops go by the frost date alone.
    expect(frostDatesFor({ zipCode: '80202' })?.warmCrops).toBeUndefined();
    expect(frostDatesFor({ zipCode: '55802' })?.warmCrops).toBeUndefined();
  });

  it('holds the lower lakes back in spring: Erie is 7a, but its lake keeps frost into late April', () => {
    expect(frostDatesForZone('7a')?.lastSpringFrost).toBe('04-03');
    expect(frostDatesFor({ zipCode: '16505' })).toMatchObject({
      lastSpringFrost: '04-26',
      firstFallFrost: '10-30',
      place: 'Erie',
    });
    expect(frostDatesFor({ zipCode: '14604' })?.place).toBe('Rochester');
    // The Rogue Valley's clear nights: Medford is 8b (Mar 14 elsewhere), its own mid-April.
    expect(frostDatesFor({ zipCode: '97501' })?.lastSpringFrost).toBe('04-13');
  });

  it("reads every line of the files, each town's dates within a sane range of its zone's", () => {
    const lines = SHIPPED_FROST_FILES.flatMap((file) => fs.readFileSync(file, 'utf8').split('\n')).filter(
      (line) => line.trim() && !line.startsWith('#'),
    );
    const listedBy = new Map<string, string>();
    for (const line of lines) {
      const [state, town, zip, frost, prefixes] = line.split('|').map((cell) => cell.trim());
      expect([line, frost]).toEqual([line, expect.stringMatching(/^\d{2}-\d{2} \d{2}-\d{2}$/)]);
      // The town's own ZIP follows its line, and no prefix is in two lines.
      expect(frostReferenceForZip(zip ?? '')).toMatchObject({ state, town, zip, frost: frost?.split(' ') });
      for (const prefix of prefixes?.split(/\s+/) ?? []) {
        expect([prefix, listedBy.get(prefix)]).toEqual([expect.stringMatching(/^\d{3}$/), undefined]);
        listedBy.set(prefix, `${town}, ${state}`);
      }
      expectNearItsZone(line, hardinessZoneForZip(zip ?? '')?.zone, frost?.split(' '));
    }
    expect(frostReferences()).toHaveLength(lines.length);
  });

  it("gives every Alaska area dates within a sane range of its zone's", () => {
    const areas = new Set(placeAreaZips().map((zip) => placeAreaForZip(zip)));
    for (const area of areas) {
      if (area?.state === 'AK') expectNearItsZone(area.name, area.zone, area.frost);
    }
  });
});

describe('hardinessZoneForZip', () => {
  it('uses the table shipped in the package by default, found from the module file', () => {
    expect(zoneTablePath()).toBe(SHIPPED_ZONE_TABLE);
    expect(SHIPPED_ZONE_TABLE).toBe(path.resolve(__dirname, '../data/hardiness-zones-2023.txt'));
    // Small enough for the repository (files over 5 MB are refused).
    expect(fs.statSync(SHIPPED_ZONE_TABLE).size).toBeLessThan(300_000);
    expect(fs.readFileSync(SHIPPED_ZONE_TABLE, 'utf8')).toMatch(
      /^# USDA Plant Hardiness Zones by ZIP code, 2023 map\.\n# USDA Plant Hardiness Zone Map, 2023\. Agricultural Research Service/,
    );
  });

  it('holds exactly the USDA 2023 file: rebuilt from lookups, it has the checksum the header records', () => {
    const zips = zoneTableZips();
    // The contiguous-US file plus the Alaska, Hawaii, Puerto Rico and Virgin Islands areas.
    expect(zips.length).toBe(39_921 + placeAreaZips().length);
    expect(zips.every((zip) => hardinessZoneForZip(zip)?.source === 'table')).toBe(true);
    const csv = tableAsUsdaCsv();
    const recorded = /phzm_us_zipcode_2023\.csv: 39921 ZIPs, sha256 ([0-9a-f]{64})/.exec(
      fs.readFileSync(SHIPPED_ZONE_TABLE, 'utf8'),
    )?.[1];
    expect(crypto.createHash('sha256').update(csv).digest('hex')).toBe(recorded);
  });

  it('is what the derive script makes of that file, and the script output reads the same as the CSV', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zones-'));
    try {
      const csv = path.join(dir, 'phzm_us_zipcode_2023.csv');
      fs.writeFileSync(csv, tableAsUsdaCsv());
      const out = path.join(dir, 'derived.txt');
      execFileSync(process.execPath, [DERIVE_SCRIPT, '--in', csv, '--out', out], { cwd: dir, stdio: 'pipe' });
      expect(fs.readFileSync(out, 'utf8')).toBe(fs.readFileSync(SHIPPED_ZONE_TABLE, 'utf8'));
      execFileSync(process.execPath, [DERIVE_SCRIPT, '--in', csv, '--out', out, '--check'], {
        cwd: dir,
        stdio: 'pipe',
      });
      // The compact file read back (as a configured table) answers like the CSV it came from, and
      // like the areas file for the ZIPs of Alaska, Hawaii, Puerto Rico and the Virgin Islands.
      configureZoneTable(csv);
      const fromCsv = new Map(zoneTableZips().map((zip) => [zip, hardinessZoneForZip(zip)]));
      configureZoneTable(out);
      for (const zip of zoneTableZips()) {
        const area = placeAreaForZip(zip);
        const expected = area
          ? { zone: area.zone, trange: zoneTemperatureRange(area.zone), source: 'table' }
          : fromCsv.get(zip);
        expect([zip, hardinessZoneForZip(zip)]).toEqual([zip, expected]);
      }
      // A configured CSV without the Alaska, Hawaii and Puerto Rico files keeps the areas' zones.
      expect(zoneTableZips().length).toBe(fromCsv.size);
      expect(fromCsv.get('99501')).toEqual({ zone: '5b', trange: '-15 to -10', source: 'table' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a CSV whose temperature band is not its zone's (the compact table would lose it)", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zones-'));
    try {
      const csv = path.join(dir, 'odd.csv');
      fs.writeFileSync(csv, 'zipcode,zone,trange,zonetitle\n97201,8b,10 to 20,8b: 10 to 20\n');
      expect(() =>
        execFileSync(process.execPath, [DERIVE_SCRIPT, '--in', csv, '--out', path.join(dir, 'x.txt')], {
          stdio: 'pipe',
        }),
      ).toThrow(/not zone 8b's band \(15 to 20\)/);
      expect(fs.existsSync(path.join(dir, 'x.txt'))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives every half zone its USDA band', () => {
    expect(zoneTemperatureRange('1a')).toBe('-60 to -55');
    expect(zoneTemperatureRange('6b')).toBe('-5 to 0');
    expect(zoneTemperatureRange('7a')).toBe('0 to 5');
    expect(zoneTemperatureRange('13b')).toBe('65 to 70');
  });

  it('knows well-known places', () => {
    expect(hardinessZoneForZip('97201')).toEqual({ zone: '8b', trange: '15 to 20', source: 'table' });
    expect(hardinessZoneForZip('94117')?.zone).toBe('10b');
    expect(hardinessZoneForZip('55408-1234')?.zone).toBe('5a');
  });

  it('gives a ZIP missing from the table the zone of the truly nearest table ZIP', () => {
    const table = new Set(zoneTableZips());
    const inContiguousUs = (c: ZipcodesEntry): boolean =>
      c.latitude > 24 && c.latitude < 50 && c.longitude > -125 && c.longitude < -66;
    const missing = [...zipcodeEntries()].filter((c) => inContiguousUs(c) && !table.has(c.zip));
    expect(missing.length).toBeGreaterThan(500);
    const located = [...table].map(zipcodeEntry).filter((c): c is ZipcodesEntry => !!c && inContiguousUs(c));
    const km = (a: ZipcodesEntry, b: ZipcodesEntry): number => {
      const rad = Math.PI / 180;
      const h =
        Math.sin(((b.latitude - a.latitude) * rad) / 2) ** 2 +
        Math.cos(a.latitude * rad) *
          Math.cos(b.latitude * rad) *
          Math.sin(((b.longitude - a.longitude) * rad) / 2) ** 2;
      return 6371 * 2 * Math.atan2(Math.sqrt(h), Math.sqrt(1 - h));
    };
    // Every 25th missing ZIP, checked against a brute-force search over the whole table.
    for (const entry of missing.filter((_, i) => i % 25 === 0)) {
      const zone = hardinessZoneForZip(entry.zip);
      expect(zone?.source).toBe('nearest');
      const nearest = zone?.nearestZip ? zipcodeEntry(zone.nearestZip) : undefined;
      expect(nearest && table.has(nearest.zip)).toBe(true);
      let best = Infinity;
      for (const c of located) best = Math.min(best, km(entry, c));
      expect(nearest ? km(entry, nearest) : Infinity).toBeCloseTo(best, 3);
      expect(zone?.distanceKm).toBeLessThanOrEqual(NEAREST_ZONE_MAX_KM);
    }
  });

  it('uses the numerically nearest ZIP of the same area when the ZIP has no known location', () => {
    const table = new Set(zoneTableZips());
    const candidate = ['97299', '97298', '97297', '97296'].find((z) => !table.has(z) && !zipcodeEntry(z));
    expect(candidate).toBeDefined();
    const zone = hardinessZoneForZip(candidate ?? '');
    expect(zone?.source).toBe('nearest');
    expect(zone?.nearestZip?.startsWith('972')).toBe(true);
  });

  it('does not invent zones far from any table ZIP (Guam, on no USDA map)', () => {
    expect(lookupZip('96910')?.state).toBe('GU');
    expect(hardinessZoneForZip('96910')).toBeNull();
  });

  it('returns null for malformed ZIPs', () => {
    expect(hardinessZoneForZip('9720')).toBeNull();
    expect(hardinessZoneForZip('abcde')).toBeNull();
    expect(hardinessZoneForZip('')).toBeNull();
  });

  it('means "zone unknown", not a crash, when there is no table', () => {
    configureZoneTable(path.join(os.tmpdir(), 'no-such-dir', 'phzm_us_zipcode_2023.csv'));
    expect(() => hardinessZoneForZip('97201')).not.toThrow();
    expect(hardinessZoneForZip('97201')).toBeNull();
    configureZoneTable(null);
    expect(hardinessZoneForZip('97201')).toBeNull();
    expect(zoneTableZips()).toEqual([]);
  });

  it('treats an unreadable or garbage table as no table', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zones-'));
    const file = path.join(dir, 'phzm_us_zipcode_2023.csv');
    fs.writeFileSync(file, 'this is not,a zone table\n1,2,3\n');
    configureZoneTable(file);
    expect(hardinessZoneForZip('97201')).toBeNull();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads a configured CSV with its Alaska/Hawaii/Puerto Rico companions, and never the environment', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zones-'));
    const main = path.join(dir, 'phzm_us_zipcode_2023.csv');
    fs.writeFileSync(main, 'zipcode,zone,trange,zonetitle\r\n97201,8b,15 to 20,8b: 15 to 20\r\n');
    fs.writeFileSync(
      path.join(dir, 'phzm_ak_zipcode_2023.csv'),
      'zipcode,zone,trange,zonetitle\n99501,5b,-15 to -10,5b: -15 to -10\n',
    );
    const previous = process.env.HARDINESS_ZONES_PATH;
    process.env.HARDINESS_ZONES_PATH = main;
    try {
      // The path comes from the service's config, not from the variable.
      configureZoneTable(undefined);
      expect(zoneTablePath()).toBe(SHIPPED_ZONE_TABLE);
      configureZoneTable(main);
      expect(zoneTablePath()).toBe(main);
      expect(hardinessZoneForZip('97201')).toEqual({ zone: '8b', trange: '15 to 20', source: 'table' });
      expect(hardinessZoneForZip('99501')).toEqual({ zone: '5b', trange: '-15 to -10', source: 'table' });
      // Portland's neighbour ZIP is not in this tiny table: nearest is 97201.
      expect(hardinessZoneForZip('97202')).toMatchObject({
        zone: '8b',
        source: 'nearest',
        nearestZip: '97201',
      });
    } finally {
      if (previous === undefined) delete process.env.HARDINESS_ZONES_PATH;
      else process.env.HARDINESS_ZONES_PATH = previous;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
