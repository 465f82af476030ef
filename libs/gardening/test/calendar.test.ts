import {
  calendarTipsFor,
  heatThresholdF,
  sendTimeFor,
  tenderSeasonAt,
  weatherAlertText,
  isGsm7,
  localDateOf,
  localInstant,
  localMinutesOf,
  timeZoneForZip,
  tipsOfferFor,
  TIPS_STOP_LINE,
  type CalendarTip,
} from '@sprout/gardening';

const YEAR_2027 = { from: new Date('2027-01-01T12:00:00Z'), until: new Date('2027-12-31T12:00:00Z') };
const keyOf = (tips: CalendarTip[], key: string) => tips.find((t) => t.key === key);
const daysBetween = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 86_400_000;

/** Two GSM-7 segments, with no extension-table character (each of those costs two septets). */
const fitsTwoSegments = (text: string) => isGsm7(text) && !/[\^{}\\[~\]|€]/.test(text) && text.length <= 306;

describe('calendarTipsFor', () => {
  it('75201 (Dallas, last frost about Mar 14): tomatoes started indoors 6-8 weeks before, hardened off, planted out after', () => {
    const tips = calendarTipsFor({ zipCode: '75201', crops: ['tomato'], ...YEAR_2027 });
    const start = keyOf(tips, 'tomatoes:start-indoors:2027');
    const harden = keyOf(tips, 'tomatoes:harden-off:2027');
    const out = keyOf(tips, 'tomatoes:transplant:2027');
    expect(start?.date).toBeDefined();
    const before = daysBetween(start!.date, '2027-03-14');
    expect(before).toBeGreaterThanOrEqual(42);
    expect(before).toBeLessThanOrEqual(56);
    expect(start!.text).toContain('tomato seeds indoors');
    expect(harden!.date < out!.date).toBe(true);
    expect(out!.date > '2027-03-14').toBe(true);
    // Only tomatoes were asked about (beside the hot region's heat warning, which names no crop).
    expect(new Set(tips.map((t) => t.crop))).toEqual(new Set(['tomatoes', null]));
  });

  it('97201 (Portland): tomatoes go out when nights warm (mid-May), weeks after the last frost', () => {
    const tips = calendarTipsFor({ zipCode: '97201', crops: ['tomato'], ...YEAR_2027 });
    expect(keyOf(tips, 'tomatoes:transplant:2027')?.date).toBe('2027-05-15');
    expect(keyOf(tips, 'tomatoes:transplant:2027')?.text).toMatch(/nights are warming here/);
    expect(keyOf(tips, 'tomatoes:harden-off:2027')?.date).toBe('2027-05-08');
    expect(keyOf(tips, 'tomatoes:start-indoors:2027')?.date).toBe('2027-03-13');
    expect(keyOf(tips, 'tomatoes:start-indoors:2027')?.text).toMatch(/9 weeks before planting out/);
  });

  it('gives the region its default crops when none were named, garlic in the fall', () => {
    const tips = calendarTipsFor({ zipCode: '97201', ...YEAR_2027 });
    expect(new Set(tips.map((t) => t.crop))).toEqual(
      new Set(['tomatoes', 'lettuce', 'peas', 'kale', 'garlic']),
    );
    const garlic = keyOf(tips, 'garlic:plant-garlic:2027');
    expect(garlic!.date >= '2027-10-01' && garlic!.date <= '2027-12-15').toBe(true);
    // The Pacific Northwest is not a hot region: no heat task.
    expect(tips.some((t) => t.task === 'protect-from-heat')).toBe(false);
  });

  it('warns hot regions about heat', () => {
    const tips = calendarTipsFor({ zipCode: '85004', ...YEAR_2027 });
    const heat = tips.find((t) => t.task === 'protect-from-heat');
    expect(heat?.crop).toBeNull();
    expect(heat!.date.slice(5, 7)).toBe('06');
    expect(heat!.text).toMatch(/shade cloth/);
  });

  it('times frost-free places by season, not frost (Honolulu, San Juan, Miami Beach)', () => {
    for (const zip of ['96813', '00901', '33139']) {
      const tips = calendarTipsFor({ zipCode: zip, ...YEAR_2027 });
      expect(tips.length).toBeGreaterThan(0);
      expect(tips.map((t) => t.text).join(' ')).not.toMatch(/frost/i);
      // Tomatoes go out in the cool, dry months, greens in the fall; garlic (needs chill) never.
      expect(keyOf(tips, 'tomatoes:transplant:2027')?.date.slice(5, 7)).toBe('01');
      expect(tips.some((t) => t.crop === 'garlic')).toBe(false);
    }
  });

  it('writes every text within two GSM-7 segments, ending with the stop line', () => {
    for (const zip of ['97201', '10001', '85004', '99501', '96813', '33139', '60601', '30301', '80202']) {
      for (const tip of calendarTipsFor({ zipCode: zip, crops: [], ...YEAR_2027 })) {
        expect(fitsTwoSegments(tip.text)).toBe(true);
        expect(tip.text.endsWith(`\n${TIPS_STOP_LINE}`)).toBe(true);
        expect(tip.text.startsWith('Sprout: ')).toBe(true);
      }
    }
  });

  it('keys a task by its season, so a window overlapping two years keeps each key once', () => {
    const a = calendarTipsFor({
      zipCode: '10001',
      from: new Date('2026-12-01T12:00:00Z'),
      until: new Date('2027-02-20T12:00:00Z'),
    });
    const b = calendarTipsFor({
      zipCode: '10001',
      from: new Date('2027-01-20T12:00:00Z'),
      until: new Date('2027-02-20T12:00:00Z'),
    });
    expect(new Set(a.map((t) => t.key)).size).toBe(a.length);
    for (const tip of b) expect(a.find((t) => t.key === tip.key)).toEqual(tip);
  });

  it('keeps the window to local dates (both ends included) and answers nothing for an unknown ZIP', () => {
    const tips = calendarTipsFor({
      zipCode: '97201',
      crops: ['tomatoes'],
      from: new Date('2027-03-13T08:30:00Z'),
      until: new Date('2027-03-13T08:30:00Z'),
    });
    // 08:30 UTC is 00:30 in Portland on Mar 13 (daylight time starts the next day).
    expect(tips.map((t) => t.key)).toEqual(['tomatoes:start-indoors:2027']);
    expect(calendarTipsFor({ zipCode: '00000', ...YEAR_2027 })).toEqual([]);
    expect(calendarTipsFor({ zipCode: 'hello', ...YEAR_2027 })).toEqual([]);
  });
});

describe('timeZoneForZip', () => {
  it.each([
    ['97201', 'America/Los_Angeles'],
    ['10001', 'America/New_York'],
    ['60601', 'America/Chicago'],
    ['80202', 'America/Denver'],
    ['85004', 'America/Phoenix'],
    ['96813', 'Pacific/Honolulu'],
    ['99501', 'America/Anchorage'],
    ['00901', 'America/Puerto_Rico'],
    // Split states: the Florida panhandle, northwest Indiana, west Texas, Idaho's panhandle.
    ['32501', 'America/Chicago'],
    ['32301', 'America/New_York'],
    ['46320', 'America/Chicago'],
    ['46204', 'America/Indiana/Indianapolis'],
    ['79901', 'America/Denver'],
    ['83814', 'America/Los_Angeles'],
    ['83702', 'America/Boise'],
  ])('%s is in %s', (zip, zone) => {
    expect(timeZoneForZip(zip)).toBe(zone);
  });

  it('is null for an unknown ZIP', () => {
    expect(timeZoneForZip('00000')).toBeNull();
    expect(timeZoneForZip('abc')).toBeNull();
  });
});

describe('local time', () => {
  it('maps local wall times to instants across a daylight-saving change', () => {
    // New York springs forward on 2027-03-14: 10:00 is 15:00 UTC the day before, 14:00 UTC that day.
    expect(localInstant('2027-03-13', 600, 'America/New_York').toISOString()).toBe(
      '2027-03-13T15:00:00.000Z',
    );
    expect(localInstant('2027-03-14', 600, 'America/New_York').toISOString()).toBe(
      '2027-03-14T14:00:00.000Z',
    );
    expect(localInstant('2027-11-07', 600, 'America/Los_Angeles').toISOString()).toBe(
      '2027-11-07T18:00:00.000Z',
    );
    expect(localInstant('2027-07-01', 540, 'America/Phoenix').toISOString()).toBe('2027-07-01T16:00:00.000Z');
    const at = new Date('2027-03-14T14:00:00Z');
    expect(localDateOf(at, 'Pacific/Honolulu')).toBe('2027-03-14');
    expect(localMinutesOf(at, 'Pacific/Honolulu')).toBe(4 * 60);
  });
});

describe('tipsOfferFor', () => {
  const base = {
    tipsStatus: 'none' as const,
    optedOut: false,
    zipCode: '97201',
    inboundText: 'when should I plant tomatoes?',
    replyText: 'In Portland, plant tomatoes out in late March.',
    now: new Date('2027-01-05T18:00:00Z'),
  };

  it('offers the next task of the crop talked about', () => {
    expect(tipsOfferFor(base)).toBe("Want a text when it's time to start your tomatoes indoors? Reply TIPS");
  });

  it('never offers twice, after a no or an opt-out, without a ZIP or a crop', () => {
    for (const tipsStatus of ['offered', 'declined', 'subscribed', 'unsubscribed'] as const) {
      expect(tipsOfferFor({ ...base, tipsStatus })).toBeNull();
    }
    expect(tipsOfferFor({ ...base, optedOut: true })).toBeNull();
    expect(tipsOfferFor({ ...base, zipCode: null })).toBeNull();
    expect(
      tipsOfferFor({
        ...base,
        inboundText: 'my lawn has brown spots',
        replyText: 'Water deeply once a week.',
      }),
    ).toBeNull();
  });
});

describe('weather alerts and send times', () => {
  it('knows the tender season: between the frost dates, all year where it never freezes', () => {
    expect(tenderSeasonAt('97201', new Date('2027-04-20T18:00:00Z'))).toBe(true);
    expect(tenderSeasonAt('97201', new Date('2027-01-10T18:00:00Z'))).toBe(false);
    expect(tenderSeasonAt('55401', new Date('2027-04-20T18:00:00Z'))).toBe(false);
    expect(tenderSeasonAt('96813', new Date('2027-01-10T18:00:00Z'))).toBe(true);
    expect(tenderSeasonAt('00000', new Date('2027-04-20T18:00:00Z'))).toBe(false);
  });

  it('puts the heat line higher where summers are hot', () => {
    expect(heatThresholdF('7a')).toBe(95);
    expect(heatThresholdF('9b')).toBe(100);
    expect(heatThresholdF(null)).toBe(95);
  });

  it('writes alerts within two GSM-7 segments with the stop line', () => {
    const freeze = weatherAlertText({ kind: 'freeze', temperatureF: 29, when: 'Tuesday Night' });
    expect(freeze).toMatch(
      /^Sprout: Frost alert: the National Weather Service forecasts a low of 29F on Tuesday night\./,
    );
    const heat = weatherAlertText({ kind: 'heat', temperatureF: 104, when: 'Today' });
    expect(heat).toContain('high of 104F today.');
    for (const text of [freeze, heat]) {
      expect(fitsTwoSegments(text)).toBe(true);
      expect(text.endsWith(`\n${TIPS_STOP_LINE}`)).toBe(true);
    }
  });

  it('sends at the planned minute, now if that passed in daytime, else the next morning', () => {
    const la = 'America/Los_Angeles';
    // Planned 10:30 on Jan 17; at 08:00 it waits for 10:30.
    expect(sendTimeFor('2027-01-17', 630, la, new Date('2027-01-17T16:00:00Z')).toISOString()).toBe(
      '2027-01-17T18:30:00.000Z',
    );
    // At 14:00 the same day it goes now.
    expect(sendTimeFor('2027-01-17', 630, la, new Date('2027-01-17T22:00:00Z')).toISOString()).toBe(
      '2027-01-17T22:00:00.000Z',
    );
    // At 21:00 it waits for 10:30 the next day.
    expect(sendTimeFor('2027-01-17', 630, la, new Date('2027-01-18T05:00:00Z')).toISOString()).toBe(
      '2027-01-18T18:30:00.000Z',
    );
  });
});
