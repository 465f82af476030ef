// Hardiness zones come with the product, and a reply never asks for a ZIP the user has just given.
import * as os from 'node:os';
import * as path from 'node:path';
import { useClosable } from '@sprout/testing';
import { ZIP_QUESTION } from '../src/location/location-rules';
import { type Harness, exchange, startHarness } from './harness';

const GARLIC = 'When should I plant garlic in 97201?';

describe('with no HARDINESS_ZONES_PATH: the table shipped in libs/gardening', () => {
  const h = useClosable(() => startHarness({ config: { hardinessZonesPath: undefined } }));

  it('stores the zone of a ZIP in a question and answers with that zone dates', async () => {
    const { user, reply } = await exchange(h, GARLIC);
    expect(user).toMatchObject({ zipCode: '97201', city: 'Portland', state: 'OR', hardinessZone: '8b' });
    // Zone 8b, moved by Portland's own averages: first fall frost around Nov 15.
    expect(reply.content).toMatch(/zone 8b .*Nov 15/);
    expect(reply.content).not.toMatch(/\bZIP\b/);
  });
});

describe('when the configured zone table cannot be read (zone unknown)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      config: { hardinessZonesPath: path.join(os.tmpdir(), 'no-such-dir', 'phzm_us_zipcode_2023.csv') },
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('keeps the ZIP, does not ask for it again, and asks for the zone instead', async () => {
    const { user, reply } = await exchange(h, GARLIC);
    expect(user).toMatchObject({ zipCode: '97201', hardinessZone: null });
    expect(reply.content).not.toMatch(/\bZIP\b/);
    expect(reply.content).not.toContain(ZIP_QUESTION);
    expect(reply.content).toContain('ZONE 7b');
  });

  it('does not ask for the ZIP of the profile either', async () => {
    const phone = '+15035559901';
    await exchange(h, '97201', { phone });
    const { reply } = await exchange(h, 'When should I plant garlic?', { phone });
    expect(reply.content).not.toMatch(/\bZIP\b/);
  });
});
