// Gardeners in Alaska, Hawaii, Puerto Rico and the Virgin Islands get a zone, a region, frost dates
// (or frost-free) and a season that are true there, from a ZIP or from a town named in a text.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  configureZoneTable,
  detectLocation,
  frostDatesFor,
  frostDatesForZone,
  hardinessZoneForZip,
  localSeasonFor,
  lookupZip,
  normalizeZone,
  placeAreaForZip,
  placeAreaZips,
  processMessage,
  regionForState,
  seasonFor,
  tropicalSeasonFor,
  zoneTableZips,
} from '@sprout/gardening';
import { zipcodeEntries } from '../src/places/zipcodes-data';

const DERIVE_SCRIPT = path.resolve(__dirname, '../scripts/derive-zones.mjs');
const AREAS_FILE = path.resolve(__dirname, '../data/areas-ak-hi-pr-vi.txt');
const JANUARY = new Date('2026-01-15T12:00:00Z');
const JULY = new Date('2026-07-15T12:00:00Z');
const SEPTEMBER = new Date('2026-09-15T12:00:00Z');

afterEach(() => configureZoneTable(undefined));

/** [ZIP, city, state, zone, region, frost: [last spring, first fall] or frost-free] */
const PLACES: ReadonlyArray<
  readonly [string, string, string, string, string, readonly [string, string] | 'frost-free']
> = [
  ['99501', 'Anchorage', 'AK', '5b', 'Alaska', ['05-07', '09-27']],
  ['99701', 'Fairbanks', 'AK', '2b', 'Alaska', ['05-22', '09-07']],
  ['99801', 'Juneau', 'AK', '6b', 'Alaska', ['05-01', '10-05']],
  ['96813', 'Honolulu', 'HI', '12b', 'Hawaii', 'frost-free'],
  ['96720', 'Hilo', 'HI', '12b', 'Hawaii', 'frost-free'],
  ['96732', 'Kahului', 'HI', '12a', 'Hawaii', 'frost-free'],
  ['00901', 'San Juan', 'PR', '13a', 'Caribbean', 'frost-free'],
  ['00730', 'Ponce', 'PR', '13a', 'Caribbean', 'frost-free'],
  ['00680', 'Mayaguez', 'PR', '13a', 'Caribbean', 'frost-free'],
];

const zoneRank = (zone: string): number => parseInt(zone, 10) * 2 + (zone.endsWith('b') ? 1 : 0);
const STATES = ['AK', 'HI', 'PR', 'VI'];

describe('a ZIP of Alaska, Hawaii or Puerto Rico', () => {
  it.each(PLACES)(
    '%s (%s, %s) has zone %s, region %s and its own frost dates',
    (zip, city, state, zone, region, frost) => {
      expect(lookupZip(zip)).toMatchObject({ city, state });
      expect(hardinessZoneForZip(zip)).toMatchObject({ zone, source: 'table' });
      expect(regionForState(state)).toBe(region);
      const dates = frostDatesFor({ zipCode: zip });
      expect(dates?.source).toBe('place');
      if (frost === 'frost-free') {
        expect(dates).toMatchObject({
          lastSpringFrost: 'frost-free',
          firstFallFrost: 'frost-free',
          growingSeasonDays: 365,
        });
      } else {
        expect([dates?.lastSpringFrost, dates?.firstFallFrost]).toEqual(frost);
      }
    },
  );

  it('gives Alaska its short season where the zone alone would promise a long one', () => {
    // Anchorage: early May to late September; Fairbanks late May to early September; Juneau early May
    // to early October. The same zones in the lower 48 have seasons weeks longer.
    for (const [zip, zone] of [
      ['99501', '5b'],
      ['99801', '6b'],
    ] as const) {
      const place = frostDatesFor({ zipCode: zip });
      const byZone = frostDatesForZone(zone);
      expect(place && byZone && place.growingSeasonDays < byZone.growingSeasonDays - 20).toBe(true);
      expect(place && byZone && place.lastSpringFrost > byZone.lastSpringFrost).toBe(true);
    }
    expect(frostDatesFor({ zipCode: '99701' })?.growingSeasonDays).toBeLessThan(110);
    // A zone the gardener texted does not override the dates of their ZIP's town.
    expect(frostDatesFor({ zipCode: '99501', zone: '7a' })).toEqual(frostDatesFor({ zipCode: '99501' }));
  });

  it('lends a ZIP the data lacks the zone of its numerical neighbour, as in the lower 48', () => {
    expect(lookupZip('99512')).toBeNull();
    expect(hardinessZoneForZip('99512')).toMatchObject({ zone: '5b', source: 'nearest' });
  });

  it('names the area the dates belong to, without the list of towns', () => {
    expect(frostDatesFor({ zipCode: '99501' })?.place).toBe('Anchorage');
    expect(frostDatesFor({ zipCode: '00901' })?.place).toBe('San Juan metro');
  });

  it('leaves the lower 48 on its zone dates, 10b and warmer frost-free (Key West, San Francisco)', () => {
    expect(frostDatesFor({ zipCode: '75201' })).toEqual({ ...frostDatesForZone('8b'), source: 'zone' });
    expect(frostDatesFor({ zipCode: '75201', zone: '7a' })).toEqual({
      ...frostDatesForZone('7a'),
      source: 'zone',
    });
    expect(frostDatesFor({ zone: '5b' })).toEqual({ ...frostDatesForZone('5b'), source: 'zone' });
    for (const zip of ['33040', '94117']) {
      expect(frostDatesFor({ zipCode: zip })).toMatchObject({
        lastSpringFrost: 'frost-free',
        source: 'zone',
      });
    }
    expect(frostDatesFor({})).toBeNull();
    expect(frostDatesFor({ zipCode: '00000' })).toBeNull();
  });

  it('keeps its frost dates when no zone table is configured', () => {
    configureZoneTable(null);
    expect(hardinessZoneForZip('99501')).toBeNull();
    expect(frostDatesFor({ zipCode: '99501' })).toMatchObject({ lastSpringFrost: '05-07', source: 'place' });
  });
});

describe('the areas file', () => {
  const ours = [...zipcodeEntries()].filter((e) => STATES.includes(e.state) && e.city !== 'Wake Island');

  it('puts every ZIP of Alaska, Hawaii, Puerto Rico and the Virgin Islands in one area of its state', () => {
    expect(ours.length).toBeGreaterThan(600);
    for (const entry of ours) {
      const area = placeAreaForZip(entry?.zip ?? '');
      expect([entry?.zip, area?.state]).toEqual([entry?.zip, entry?.state]);
    }
    // And names no ZIP that does not exist, nor one of another state.
    for (const zip of placeAreaZips())
      expect([zip, lookupZip(zip)?.state]).toEqual([zip, placeAreaForZip(zip)?.state]);
    expect(placeAreaZips().length).toBe(ours.length);
  });

  it('is in the shipped zone table, zone for zone', () => {
    const table = new Set(zoneTableZips());
    for (const zip of placeAreaZips()) {
      expect(table.has(zip)).toBe(true);
      expect(hardinessZoneForZip(zip)?.zone).toBe(placeAreaForZip(zip)?.zone);
    }
  });

  it('gives Alaska frost dates of a northern season and the tropics none', () => {
    for (const zip of placeAreaZips()) {
      const area = placeAreaForZip(zip);
      if (!area) continue;
      expect(normalizeZone(area.zone)).toBe(area.zone);
      if (area.state === 'AK') {
        expect(area.frost).not.toBe('frost-free');
        const [spring, fall] = area.frost === 'frost-free' ? ['', ''] : area.frost;
        expect(spring >= '04-01' && spring <= '07-15').toBe(true);
        expect(fall >= '07-15' && fall <= '11-15').toBe(true);
        expect(zoneRank(area.zone)).toBeLessThanOrEqual(zoneRank('8b'));
      } else {
        expect(area.frost).toBe('frost-free');
        expect(zoneRank(area.zone)).toBeGreaterThanOrEqual(zoneRank('10b'));
      }
    }
  });
});

describe('the derive script and the areas file', () => {
  const derive = (dir: string, args: string[]): string =>
    execFileSync(process.execPath, [DERIVE_SCRIPT, ...args], { cwd: dir, stdio: 'pipe' }).toString();

  /** Runs `body` in a fresh folder holding a one-ZIP USDA CSV (Portland, 8b), then removes it. */
  const inTempDir = (body: (dir: string, usCsv: string) => void): void => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'areas-'));
    try {
      const us = path.join(dir, 'phzm_us_zipcode_2023.csv');
      fs.writeFileSync(us, 'zipcode,zone,trange,zonetitle\n97201,8b,15 to 20,8b: 15 to 20\n');
      body(dir, us);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };

  it('records the method, the areas and their zones in the table header, with the USDA attribution', () => {
    const header = fs
      .readFileSync(path.resolve(__dirname, '../data/hardiness-zones-2023.txt'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('#'))
      .join('\n');
    expect(header).toMatch(/USDA Plant Hardiness Zone Map, 2023\. Agricultural Research Service/);
    expect(header).toMatch(/PRISM Climate Group, Oregon State University/);
    expect(header).toMatch(
      /areas-ak-hi-pr-vi\.txt: \d+ ZIPs of Alaska, Hawaii, Puerto Rico and the U\.S\. Virgin Islands/,
    );
    expect(header).toMatch(/AK: Anchorage 5b;/);
    expect(header).toMatch(/Hilo and the Hilo coast 12b/);
  });

  it('lets an official USDA file win over the areas on its ZIPs', () => {
    inTempDir((dir, us) => {
      const ak = path.join(dir, 'phzm_ak_zipcode_2023.csv');
      fs.writeFileSync(ak, 'zipcode,zone,trange,zonetitle\n99501,6a,-10 to -5,6a: -10 to -5\n');
      const out = path.join(dir, 'out.txt');
      derive(dir, ['--in', us, '--in', ak, '--out', out]);
      configureZoneTable(out);
      expect(hardinessZoneForZip('99501')?.zone).toBe('6a');
      expect(hardinessZoneForZip('99701')?.zone).toBe('2b');
      expect(hardinessZoneForZip('97201')?.zone).toBe('8b');
      derive(dir, ['--in', us, '--no-areas', '--out', out]);
      configureZoneTable(out);
      expect(zoneTableZips()).toEqual(['97201']);
    });
  });

  it('keeps these zones under a configured USDA CSV that comes without their official files', () => {
    inTempDir((dir, us) => {
      configureZoneTable(us);
      expect(hardinessZoneForZip('99501')).toEqual({ zone: '5b', trange: '-15 to -10', source: 'table' });
      const ak = path.join(dir, 'phzm_ak_zipcode_2023.csv');
      fs.writeFileSync(ak, 'zipcode,zone,trange,zonetitle\n99501,6a,-10 to -5,6a: -10 to -5\n');
      configureZoneTable(us);
      expect(hardinessZoneForZip('99501')?.zone).toBe('6a');
      expect(hardinessZoneForZip('96813')?.zone).toBe('12b');
    });
  });

  it.each([
    ['a ZIP of another state', 'AK | Somewhere | 5b | 05-15 09-15 | 96813', /96813 is not a AK ZIP/],
    [
      'a ZIP in two areas',
      'AK | A | 5b | 05-15 09-15 | 99501\nAK | B | 5a | 05-15 09-15 | 99501',
      /99501 is in two areas/,
    ],
    ['a frost date that is not MM-DD', 'AK | A | 5b | May 15 | 99501', /frost must be/],
    ['a zone that is not a half zone', 'HI | A | 12 | frost-free | 96813', /"12" is not a half zone/],
    ['a line without its five fields', 'PR | San Juan | 13a | 00901', /expected "<state> \| <area>/],
  ])('refuses an areas file with %s', (_what, body, message) => {
    inTempDir((dir, us) => {
      const areas = path.join(dir, 'areas.txt');
      fs.writeFileSync(areas, `# test\n${body}\n`);
      const out = path.join(dir, 'x.txt');
      expect(() => derive(dir, ['--in', us, '--areas', areas, '--out', out])).toThrow(message);
      expect(fs.existsSync(out)).toBe(false);
    });
  });

  it('keeps the shipped areas file readable by the script (no ZIP twice, every line valid)', () => {
    inTempDir((dir, us) => {
      const out = path.join(dir, 'x.txt');
      expect(derive(dir, ['--in', us, '--areas', AREAS_FILE, '--out', out])).toMatch(
        new RegExp(`${placeAreaZips().length + 1} ZIPs`),
      );
    });
  });
});

describe('seasons in the tropics', () => {
  it('are wet and dry: Hawaii wet in winter, Puerto Rico and the Virgin Islands wet in summer and fall', () => {
    const honolulu = lookupZip('96813');
    const sanJuan = lookupZip('00901');
    expect(localSeasonFor(JANUARY, honolulu)).toBe('wet season');
    expect(localSeasonFor(JULY, honolulu)).toBe('dry season');
    expect(localSeasonFor(JANUARY, sanJuan)).toBe('dry season');
    expect(localSeasonFor(SEPTEMBER, sanJuan)).toBe('wet season');
    expect(localSeasonFor(SEPTEMBER, lookupZip('00801'))).toBe('wet season');
    expect(localSeasonFor(JANUARY, { state: 'HI' })).toBe('wet season');
    // Guam by its territory; a place between the tropics by its latitude and hemisphere.
    expect(tropicalSeasonFor(SEPTEMBER, { state: 'GU' })).toBe('wet season');
    expect(tropicalSeasonFor(JANUARY, { latitude: -12 })).toBe('wet season');
    expect(tropicalSeasonFor(JANUARY, { latitude: 12 })).toBe('dry season');
  });

  it('stay meteorological outside the tropics (Anchorage, Portland, Sydney)', () => {
    expect(localSeasonFor(JANUARY, lookupZip('99501'))).toBe('winter');
    expect(localSeasonFor(JULY, lookupZip('97201'))).toBe('summer');
    expect(localSeasonFor(JULY, { latitude: -33.9 })).toBe('winter');
    expect(localSeasonFor(JANUARY)).toBe(seasonFor(JANUARY));
    expect(tropicalSeasonFor(JANUARY, lookupZip('33040'))).toBeNull();
    expect(tropicalSeasonFor(JANUARY, null)).toBeNull();
  });
});

describe('input processing for these places', () => {
  it('adds the place frost dates and season to the context', () => {
    const anchorage = processMessage('When should I plant potatoes?', { zip_code: '99501' }, JANUARY);
    expect(anchorage.processing.processedMessage).toContain(
      'Location: Anchorage, AK 99501; Region: Alaska; USDA zone: 5b; Frost: last spring ~May 7, first fall ~Sep 27; Season: winter',
    );
    const honolulu = processMessage('When should I plant tomatoes?', { region: '96813' }, JANUARY);
    expect(honolulu.processing.processedMessage).toContain(
      'Region: Hawaii; USDA zone: 12b; Frost: frost-free; Season: wet season',
    );
    const ponce = processMessage(
      'When should I plant peppers?',
      { zip_code: '00730', hardiness_zone: '13a' },
      JULY,
    );
    expect(ponce.processing.processedMessage).toContain(
      'Region: Caribbean; USDA zone: 13a; Frost: frost-free; Season: wet season',
    );
  });
});

describe('location detection', () => {
  it.each([
    ["I'm in Anchorage", 'city', 'Anchorage', 'AK', '5b'],
    ['zip 96813', 'zip', 'Honolulu', 'HI', '12b'],
    ['San Juan PR', 'city_state', 'San Juan', 'PR', '13a'],
    ['I garden in Hilo', 'city', 'Hilo', 'HI', '12b'],
    ['I live in Fairbanks', 'city', 'Fairbanks', 'AK', '2b'],
    ['Juneau', 'city', 'Juneau', 'AK', '6b'],
    ['Ponce', 'city', 'Ponce', 'PR', '13a'],
    ["I'm in Mayagüez", 'city', 'Mayaguez', 'PR', '13a'],
    ['Bayamón, Puerto Rico', 'city_state', 'Bayamon', 'PR', '13a'],
    ['we live in Kahului', 'city', 'Kahului', 'HI', '12a'],
    ['Kona, HI', 'city_state', 'Kailua Kona', 'HI', '12b'],
    ['99701', 'zip', 'Fairbanks', 'AK', '2b'],
  ])('reads %j as %s %s, %s (zone %s)', (text, locationType, city, state, zone) => {
    const found = detectLocation(text);
    expect(found).toMatchObject({ hasLocation: true, locationType, city, state, hardinessZone: zone });
    expect(regionForState(found.state ?? '')).toBe(regionForState(state));
  });

  it('reads states and named areas, the Hawaiian spelling too', () => {
    expect(detectLocation('I live in Hawaiʻi')).toMatchObject({ locationType: 'state', state: 'HI' });
    expect(detectLocation("we're in Hawai'i")).toMatchObject({ locationType: 'state', state: 'HI' });
    expect(detectLocation("I'm in Puerto Rico")).toMatchObject({ locationType: 'state', state: 'PR' });
    expect(detectLocation("I'm on Oʻahu")).toMatchObject({
      locationType: 'region',
      region: 'Oahu',
      state: 'HI',
    });
    expect(detectLocation('we garden in southeast Alaska')).toMatchObject({
      locationType: 'region',
      region: 'Southeast Alaska',
      state: 'AK',
    });
    expect(detectLocation('Mat-Su valley here')).toMatchObject({
      region: 'Mat-Su Valley',
      hardinessZone: '5a',
    });
  });

  it('does not take an Atlanta street for Ponce', () => {
    expect(detectLocation('I live off Ponce de Leon in Atlanta')).toMatchObject({
      city: 'Atlanta',
      state: 'GA',
    });
    expect(detectLocation('near Ponce City Market')).not.toMatchObject({ state: 'PR' });
  });
});
