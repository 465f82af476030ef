import { detectLocation, evaluateLocation, isLocationRefusal, type LocationCase } from '@sprout/gardening';
import devSet from '../eval/location.json';
import holdoutSet from '../eval/location-holdout.json';

describe('detectLocation on the labelled sets', () => {
  it.each(
    [...(devSet as LocationCase[]), ...(holdoutSet as LocationCase[])].map((c) => [c.text, c] as const),
  )('%s', (_text, c) => {
    expect(detectLocation(c.text)).toMatchObject(c.expect);
  });

  it('meets the 97% exact-match target', () => {
    expect(
      evaluateLocation([...(devSet as LocationCase[]), ...(holdoutSet as LocationCase[])]).accuracy,
    ).toBeGreaterThanOrEqual(0.97);
  });
});

describe('detectLocation details', () => {
  it('returns hasLocation, location, confidence and type for a ZIP, with place details and zone', () => {
    expect(detectLocation('my zip is 97201')).toEqual({
      hasLocation: true,
      location: 'Portland, OR 97201',
      confidence: 0.95,
      locationType: 'zip',
      refusedLocation: false,
      zipCode: '97201',
      city: 'Portland',
      state: 'OR',
      country: 'United States',
      hardinessZone: '8b',
    });
  });

  it('gives a representative ZIP and zone for a city with its state', () => {
    expect(detectLocation('Austin, Texas')).toMatchObject({ location: 'Austin, TX', hardinessZone: '9a' });
    expect(detectLocation('Austin, Texas').zipCode).toMatch(/^787/);
  });

  it('keeps confidence within 0-1 and is lower for vague answers', () => {
    for (const text of [
      '97201',
      'portland or',
      'I live in Ohio',
      'Pacific Northwest',
      'near the coast',
      'nope',
      'I am in Toronto',
      '',
    ]) {
      const { confidence } = detectLocation(text);
      expect(confidence).toBeGreaterThanOrEqual(0);
      expect(confidence).toBeLessThanOrEqual(1);
    }
    expect(detectLocation('near the coast').confidence).toBeLessThan(0.5);
    expect(detectLocation('97201').confidence).toBeGreaterThan(
      detectLocation('Pacific Northwest').confidence,
    );
  });

  it('reads ZIP+4 as its five-digit ZIP', () => {
    expect(detectLocation('98101-2345').zipCode).toBe('98101');
  });

  it('accepts only ZIPs that exist', () => {
    expect(detectLocation('my zip is 00000').hasLocation).toBe(false);
    expect(detectLocation('zip 99999').hasLocation).toBe(false);
  });

  it.each([
    ['$12345 for the patio'],
    ['12345 dollars'],
    ['5 tomato plants'],
    ['since 2019'],
    ['10000 sq ft lawn'],
    ['43560 square feet'],
    ['call 503-555-0199'],
    ['(503) 555-0199'],
    ['+1 971 555 0123'],
    ['order #30301'],
    ['12,345 seeds'],
    ['ratio 1.12345'],
    ['30301 seeds'],
    ['price 97201.50'],
  ])('does not take numbers that are not ZIPs: %s', (text) => {
    expect(detectLocation(text).locationType).not.toBe('zip');
  });

  it('handles any case and punctuation around city and state', () => {
    for (const text of [
      'PORTLAND OR',
      'portland, or.',
      'Portland,OR',
      'portland oregon!',
      "I'm in Portland, Oregon",
    ]) {
      expect(detectLocation(text)).toMatchObject({
        locationType: 'city_state',
        city: 'Portland',
        state: 'OR',
      });
    }
  });

  it('prefers a US place over a foreign origin, and a ZIP over everything', () => {
    expect(detectLocation('from London but now in Boise ID').state).toBe('ID');
    expect(detectLocation('Toronto born, 98101 now').zipCode).toBe('98101');
  });

  it('reports refusals', () => {
    expect(detectLocation("I'd rather not say")).toEqual({
      hasLocation: false,
      location: null,
      confidence: 0.9,
      locationType: 'refused',
      refusedLocation: true,
    });
    expect(isLocationRefusal('none of your business')).toBe(true);
    expect(isLocationRefusal("I'd rather not use chemicals")).toBe(false);
  });

  it('gives no location for empty or whitespace text', () => {
    expect(detectLocation('')).toEqual({
      hasLocation: false,
      location: null,
      confidence: 0,
      locationType: 'none',
      refusedLocation: false,
    });
    expect(detectLocation('   ').locationType).toBe('none');
  });

  it('marks foreign places international with their country', () => {
    expect(detectLocation('I live in Calgary')).toMatchObject({
      hasLocation: true,
      locationType: 'international',
      country: 'Canada',
    });
    expect(detectLocation('Vancouver WA')).toMatchObject({ locationType: 'city_state', state: 'WA' });
  });

  it('reads "LA" as Los Angeles and "Baton Rouge, LA" as Louisiana', () => {
    expect(detectLocation("I'm in LA")).toMatchObject({
      locationType: 'city',
      city: 'Los Angeles',
      state: 'CA',
    });
    expect(detectLocation('Baton Rouge, LA')).toMatchObject({ state: 'LA' });
  });

  it('reads a big city before a lower-case "or" as the city, and a city named after its state as the city', () => {
    expect(detectLocation('should i keep grass in phoenix or replace it')).toMatchObject({ state: 'AZ' });
    expect(detectLocation('when to plant garlic in portland or')).toMatchObject({ state: 'OR' });
    expect(detectLocation('when is the first frost in kansas city')).toMatchObject({
      city: 'Kansas City',
      state: 'MO',
    });
    expect(detectLocation('i live in oklahoma city')).toMatchObject({ city: 'Oklahoma City' });
    expect(detectLocation('we moved to kansas last year')).toMatchObject({
      locationType: 'state',
      state: 'KS',
    });
  });
});
