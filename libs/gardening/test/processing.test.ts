import {
  describeProfileCommand,
  isServiceKeyword,
  parseProfileCommand,
  processMessage,
} from '@sprout/gardening';

const FALL_DAY = new Date('2025-10-05T12:00:00Z');
const TESTER_DEFAULTS = {
  region: '94117',
  hardiness_zone: '10a',
  soil_type: 'clay',
  experience_level: 'beginner',
};

describe('processMessage', () => {
  it('adds the tester defaults as a bracketed context suffix', () => {
    const result = processMessage('When should I plant tomatoes?', TESTER_DEFAULTS, FALL_DAY);
    expect(result.processing).toEqual({
      originalMessage: 'When should I plant tomatoes?',
      processedMessage:
        'When should I plant tomatoes? [Context: Location: San Francisco, CA 94117; Region: California; USDA zone: 10a; Frost: last spring ~Jan 30, first fall ~Dec 15; Season: fall; Soil: clay; Experience: beginner]',
      enhancements: [
        'Added location: ZIP 94117 (San Francisco, CA)',
        'Added region: California (from ZIP)',
        'Added hardiness zone: 10a',
        'Added frost dates: last spring ~Jan 30, first fall ~Dec 15',
        'Added season: fall',
        'Added soil type: clay',
        'Added experience level: beginner',
      ],
      skipProcessing: false,
    });
    expect(result.messageLength).toBe(29);
    expect(result.wordCount).toBe(5);
    expect(result.validation.responseType).toBe('gardening_question');
  });

  it('derives the zone from a ZIP when no zone is given', () => {
    const result = processMessage('When should I plant garlic?', { zip_code: '55408' }, FALL_DAY);
    expect(result.processing.enhancements).toContain('Added hardiness zone: 5a (from ZIP)');
    expect(result.processing.processedMessage).toContain('USDA zone: 5a');
    expect(result.processing.processedMessage).toContain('Region: Midwest');
  });

  it('uses a region name as given', () => {
    const result = processMessage(
      'What grows well in shade?',
      { region: 'Pacific Northwest' },
      new Date('2025-04-10T12:00:00Z'),
    );
    expect(result.processing.processedMessage).toBe(
      'What grows well in shade? [Context: Region: Pacific Northwest; Season: spring]',
    );
  });

  it('takes the season from the date', () => {
    for (const [date, season] of [
      ['2025-01-10', 'winter'],
      ['2025-04-10', 'spring'],
      ['2025-07-10', 'summer'],
      ['2025-10-10', 'fall'],
    ] as const) {
      expect(
        processMessage('my roses have black spots', {}, new Date(`${date}T12:00:00Z`)).processing
          .enhancements,
      ).toContain(`Added season: ${season}`);
    }
  });

  it('says frost-free for warm zones and normalises soil and level', () => {
    const result = processMessage(
      'Can I grow mangoes here?',
      { hardiness_zone: '11A', soil_type: 'Sandy Loam', experience_level: 'expert' },
      FALL_DAY,
    );
    expect(result.processing.enhancements).toEqual(
      expect.arrayContaining([
        'Added frost dates: frost-free',
        'Added soil type: sandy loam',
        'Added experience level: advanced',
      ]),
    );
  });

  it.each([
    ['ZIP 98101'],
    ['ZONE 7b'],
    ['SOIL clay'],
    ['LEVEL beginner'],
    ['STOP'],
    ['HELP'],
    ['thanks'],
    ['ok'],
    ['hi'],
    ['?'],
    ['roses?'],
    ['97201'],
  ])('skips processing for %j', (text) => {
    const result = processMessage(text, TESTER_DEFAULTS, FALL_DAY);
    expect(result.processing.skipProcessing).toBe(true);
    expect(result.processing.processedMessage).toBe(text);
    expect(result.processing.enhancements).toEqual([]);
  });

  it('skips invalid messages but still reports their validation', () => {
    const result = processMessage('my dog ate a mushroom', TESTER_DEFAULTS, FALL_DAY);
    expect(result.processing.skipProcessing).toBe(true);
    expect(result.validation.responseType).toBe('safety_concern');
  });

  it('counts length and words of the original text', () => {
    const result = processMessage('  My tomato leaves are yellow  ', {}, FALL_DAY);
    expect(result.messageLength).toBe(31);
    expect(result.wordCount).toBe(5);
    expect(result.processing.processedMessage.startsWith('My tomato leaves are yellow [Context:')).toBe(true);
  });
});

describe('parseProfileCommand', () => {
  it.each([
    ['ZIP 98101', { kind: 'zip', value: '98101' }],
    ['zip: 02139-4307', { kind: 'zip', value: '02139' }],
    ['Zipcode 97201', { kind: 'zip', value: '97201' }],
    ['ZONE 7b', { kind: 'zone', value: '7b' }],
    ['zone 10A', { kind: 'zone', value: '10a' }],
    ['SOIL clay', { kind: 'soil', value: 'clay' }],
    ['soil: Sandy Loam', { kind: 'soil', value: 'sandy loam' }],
    ['LEVEL beginner', { kind: 'level', value: 'beginner' }],
    ['level expert', { kind: 'level', value: 'advanced' }],
    ['experience: intermediate', { kind: 'level', value: 'intermediate' }],
  ])('%s', (text, expected) => {
    expect(parseProfileCommand(text)).toEqual(expected);
  });

  it.each([
    ['ZIP 00000', 'zip'],
    ['ZIP 9810', 'zip'],
    ['ZONE 15c', 'zone'],
    ['ZONE 0', 'zone'],
    ['SOIL mud', 'soil'],
    ['LEVEL wizard', 'level'],
  ])('rejects the bad value in %s with a message', (text, kind) => {
    const command = parseProfileCommand(text);
    expect(command).toMatchObject({ kind, value: null });
    expect(command && 'error' in command ? command.error : '').toMatch(/\w{4}/);
  });

  it.each([
    ['When should I plant tomatoes?'],
    ['zone 7b is cold, what can I grow there?'],
    ['level ground is best?'],
    ['soil'],
    ['my soil is clay'],
  ])('is not a command: %s', (text) => {
    expect(parseProfileCommand(text)).toBeNull();
  });

  it('describes saved values for the confirmation SMS', () => {
    expect(describeProfileCommand({ kind: 'zip', value: '98101' })).toBe(
      'Saved: ZIP 98101 (Seattle, WA), hardiness zone 9a. My advice will now fit your area.',
    );
    expect(describeProfileCommand({ kind: 'zone', value: '7b' })).toMatch(/zone 7b/);
    expect(describeProfileCommand({ kind: 'soil', value: 'clay' })).toMatch(/clay/);
    expect(describeProfileCommand({ kind: 'level', value: 'beginner' })).toMatch(/beginner/);
    expect(describeProfileCommand({ kind: 'zip', value: null, error: 'bad zip' })).toBe('bad zip');
  });

  it('recognises SMS keywords', () => {
    expect(isServiceKeyword('stop')).toBe(true);
    expect(isServiceKeyword('Unsubscribe.')).toBe(true);
    expect(isServiceKeyword('stop the aphids')).toBe(false);
  });
});
