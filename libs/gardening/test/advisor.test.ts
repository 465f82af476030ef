import { adviseOffline, CROPS, evaluateAdvisor, isGsm7, type AdviceRequest } from '@sprout/gardening';
import { buildContext } from '../src/advisor/context';
import { cropTimingAnswer, whatToPlantAnswer } from '../src/advisor/planting';
import { plantsNotHardy } from '../src/advisor/plants';
import advisorSet from '../eval/advisor.json';
import holdoutSet from '../eval/advisor-holdout.json';
import topicSet from '../eval/advisor-topics.json';

const ZONES = [
  null,
  '3a',
  '4b',
  '5a',
  '6a',
  '6b',
  '7a',
  '7b',
  '8a',
  '8b',
  '9a',
  '9b',
  '10a',
  '10b',
  '11a',
  '13b',
];
const DATES = [
  '2025-01-05',
  '2025-02-20',
  '2025-04-01',
  '2025-05-15',
  '2025-07-04',
  '2025-08-20',
  '2025-10-01',
  '2025-11-15',
  '2025-12-28',
];
const MAY = new Date('2025-05-01T12:00:00Z');

/** Why a text is not a sendable SMS answer, or null when it is. */
function smsProblem(text: string): string | null {
  if (text.length < 40) return `too short (${text.length})`;
  if (text.length > 306) return `longer than two segments (${text.length})`;
  if (!isGsm7(text)) return 'not GSM-7';
  if (/undefined|null|NaN|[{}]/.test(text)) return 'template leak';
  return null;
}

/** The chat history the reply pipeline passes: the gardener's words wrapped in <sms> tags. */
const history = (...texts: string[]): AdviceRequest['history'] =>
  texts.map((content, i) =>
    i % 2 === 0 ? { role: 'user', content: `<sms>\n${content}\n</sms>` } : { role: 'assistant', content },
  );

describe('computed answers', () => {
  it('keeps every crop timing answer SMS-safe within two segments, for every mode, zone and date', () => {
    const problems: string[] = [];
    for (const crop of CROPS) {
      for (const zone of ZONES) {
        for (const date of DATES) {
          for (const mode of ['plant', 'indoor', 'grow'] as const) {
            const ctx = buildContext({
              question: `when do i plant ${crop.name}`,
              zone,
              experienceLevel: 'beginner',
              now: new Date(`${date}T12:00:00Z`),
            });
            const problem = smsProblem(cropTimingAnswer(crop, ctx, mode));
            if (problem) problems.push(`${crop.name} ${mode} zone ${zone} ${date}: ${problem}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('keeps "what can I plant" answers SMS-safe for every zone and month', () => {
    const problems: string[] = [];
    for (const zone of ZONES) {
      for (let month = 0; month < 12; month++) {
        const from = new Date(Date.UTC(2025, month, 1));
        const ctx = buildContext({ question: 'what can i plant now', zone, now: from });
        const problem = smsProblem(
          whatToPlantAnswer(ctx, { from, to: new Date(Date.UTC(2025, month, 21)) }, 'now'),
        );
        if (problem) problems.push(`zone ${zone} month ${month + 1}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('lists crops in their best weeks first, then warm crops that still have time to ripen', () => {
    const atlanta = adviseOffline({
      question: 'what can I plant in august',
      zipCode: '30303',
      now: new Date('2025-07-20T12:00:00Z'),
    });
    // Fall squash goes in by early August in a long, hot summer; broccoli follows.
    expect(atlanta.answer).toMatch(/^Plant in August in zone 8a: squash \(Aug 1-3\).*broccoli/);
    // Tomatoes set out in August would set fruit in the heat and not ripen before frost.
    expect(atlanta.answer).not.toMatch(/tomatoes/);
    const dallas = adviseOffline({ question: 'what can I plant now', zipCode: '75201', now: MAY });
    expect(dallas.answer).toMatch(/Still time .*tomatoes \(May 1-22\)/);
  });

  it('times fall warm crops where summers are long and hot by days to harvest and ripening, not the last possible day', () => {
    const ask = (question: string, zipCode: string, now: string): string =>
      adviseOffline({ question, zipCode, now: new Date(`${now}T12:00:00Z`) }).answer;
    const dallas = ask('When should I put in fall tomatoes here in Dallas?', '75214', '2027-06-15');
    expect(dallas).toMatch(/by Jul 16 \(mid-July\) for a fall crop, in time to ripen before frost/);
    expect(dallas).not.toMatch(/Sep/);
    // In May the fall window is still ahead; spring's best weeks are past.
    expect(ask('when do i plant tomatoes', '75214', '2027-05-20')).toMatch(
      /for a fall crop .* Jun 18-Jul 16 \(mid-June to mid-July\)/,
    );
    // Weeks after spring's window it is still spring, not "wait for fall".
    expect(ask('when do i plant tomatoes', '75214', '2027-04-20')).toMatch(/^Still a good time/);
    // Where summer nights are cool and dry (the Central Valley), tomatoes get no second season.
    expect(ask('when do i plant tomatoes', '95814', '2027-06-15')).not.toMatch(/fall crop/);
    // A short summer has no room for one either.
    expect(ask('when do i plant tomatoes', '63101', '2027-06-15')).not.toMatch(/fall crop/);
  });

  it('sets out crops that want warmer nights later than tomatoes where nights stay cool', () => {
    const ask = (crop: string): string =>
      adviseOffline({ question: `when do i plant ${crop} outside`, zipCode: '97405', now: MAY }).answer;
    expect(ask('tomatoes')).toMatch(/May 15-29/);
    expect(ask('peppers')).toMatch(/May 22-Jun 5 \(late May to early June/);
  });

  it('tells a short-season gardener how to gain weeks for warm crops, and no one else', () => {
    const ask = (crop: string, zipCode: string): string =>
      adviseOffline({ question: `when can i plant ${crop}`, zipCode, now: new Date('2027-04-20T12:00:00Z') })
        .answer;
    // Bend's frosts run into late June: tomatoes set out in July have about 11 weeks.
    expect(ask('tomatoes', '97701')).toMatch(
      /Short season \(~76 days to frost\): early varieties, set out under walls of water/,
    );
    expect(ask('melons', '97701')).toMatch(/Short season .* started in pots 3 weeks ahead/);
    expect(ask('tomatoes', '80202')).not.toMatch(/Short season/);
    expect(ask('beans', '97701')).not.toMatch(/Short season/);
  });

  it('names the months where frost is rare, even when the lead must be short', () => {
    const tampa = adviseOffline({
      question: 'When should I plant strawberries in Tampa?',
      zipCode: '33606',
      now: new Date('2027-08-25T12:00:00Z'),
    }).answer;
    expect(tampa).toMatch(/^Frost is rare here/);
    expect(tampa).toMatch(/October-early November in zones 9\+/);
  });
});

describe('adviseOffline', () => {
  it('meets every labelled advisor set', () => {
    for (const set of [advisorSet, holdoutSet, topicSet]) {
      expect(evaluateAdvisor(set).failures).toEqual([]);
    }
  });

  it('names the weeks after the last frost with dates for tomatoes in 75201', () => {
    const advice = adviseOffline({
      question: 'when do I plant tomatoes?',
      zipCode: '75201',
      now: new Date('2025-02-01T12:00:00Z'),
    });
    expect(advice).toMatchObject({
      topic: 'planting schedule',
      matched: true,
      entryId: 'crop-timing:tomato',
    });
    expect(advice.answer).toContain('zone 8b');
    expect(advice.answer).toContain('last frost ~Mar 14');
    expect(advice.answer).toContain('Mar 21-Apr 4');
    expect(advice.answer).toMatch(/nights stay above 50F/);
  });

  it('times every crop a question names, saying the zone once', () => {
    const advice = adviseOffline({
      question: 'when can I put tomatoes and peppers out?',
      zipCode: '75201',
      now: new Date('2025-02-01T12:00:00Z'),
    });
    expect(advice.entryId).toBe('crop-timing:tomato');
    expect(advice.answer).toMatch(/tomato transplants Mar 21-Apr 4/);
    expect(advice.answer).toMatch(/\. Set out pepper transplants /);
    expect(advice.answer.match(/zone 8b/g)).toHaveLength(1);
    const one = adviseOffline({ question: 'when do I plant tomatoes?', zipCode: '75201', now: MAY });
    expect(one.answer).not.toMatch(/pepper/);
  });

  it('answers for a place the gardener names in another state, and keeps home otherwise', () => {
    const ask = (question: string, zipCode: string): string =>
      adviseOffline({ question, zipCode, now: MAY }).answer;
    // A Chicago gardener asking about a lawn in Tucson gets the desert's natives, not the Midwest's.
    expect(ask('I want to replace the lawn with native plants at my house in tucson', '60601')).toMatch(
      /Southwest natives/,
    );
    expect(ask('when do i plant tomatoes at my moms in phoenix', '60601')).toMatch(/zone 9b/);
    // A state named away from home has no one zone: no home dates, and no request for a ZIP.
    const florida = ask('when do i plant tomatoes in florida', '60601');
    expect(florida).not.toMatch(/zone 6a|ZIP/);
    // A town up the mountain from home is its own zone; the town the gardener came from is not.
    expect(ask('when do i plant tomatoes at our cabin in flagstaff', '85004')).toMatch(/zone 6a/);
    expect(ask('moved here from phoenix, when should i set out tomato transplants', '86001')).toMatch(
      /zone 6a/,
    );
    expect(ask('moved here from tucson, when should i set out tomato transplants', '60601')).toMatch(
      /zone 6b/,
    );
    expect(ask('when do i plant tomatoes in chicago', '60601')).toMatch(/zone 6b/);
  });

  it("answers a lawn to be replaced with natives with the gardener's regional natives", () => {
    const ask = (zipCode: string): string =>
      adviseOffline({
        question: 'I want to replace my lawn with native plants, what should I plant?',
        zipCode,
        now: MAY,
      }).answer;
    expect(ask('95814')).toMatch(/California natives .*ceanothus/);
    expect(ask('60601')).toMatch(/Midwest natives .*milkweed/);
    expect(
      adviseOffline({ question: 'what can I plant instead of grass', zipCode: '60601', now: MAY }).answer,
    ).toMatch(/^Good lawn alternatives/);
  });

  it('times setting out a crop started indoors, and starting it indoors, apart', () => {
    const ask = (question: string): string => adviseOffline({ question, zipCode: '60601', now: MAY }).entryId;
    expect(ask('when can I put my peppers outside? I started them indoors in February')).toBe(
      'crop-timing:pepper',
    );
    expect(ask('when should I start pepper seeds indoors')).toBe('crop-indoor:pepper');
  });

  it('waits for warm nights west of the Cascades, weeks after the last frost', () => {
    const ask = (zipCode: string): string =>
      adviseOffline({
        question: 'when can I plant tomatoes outside',
        zipCode,
        now: new Date('2027-04-10T12:00:00Z'),
      }).answer;
    expect(ask('97201')).toMatch(
      /last frost ~Mar 25\), set out tomato transplants May 15-29 .*nights stay cool here/,
    );
    expect(ask('98101')).toMatch(/tomato transplants May 25-Jun 8/);
    // Duluth is 5a, but Lake Superior keeps frosts coming until about May 20.
    expect(ask('55802')).toMatch(/last frost ~May 20\), set out tomato transplants May 27-Jun 10/);
  });

  /** The advisor's answer to a question from a ZIP on a date. */
  const answerOn = (question: string, zipCode: string, date: string): string =>
    adviseOffline({ question, zipCode, now: new Date(`${date}T12:00:00Z`) }).answer;

  it('counts an indoor start from planting out, in the weeks its own window spans', () => {
    // Seattle's tomatoes go out May 25-Jun 8, so seeds started Mar 23-Apr 6 are 7-9 weeks ahead.
    expect(answerOn('when do i start tomato seeds', '98103', '2025-02-20')).toMatch(
      /Mar 23-Apr 6 \(late March to early April\), 7-9 weeks before planting out/,
    );
  });

  it('sets warm crops out in Alaska in early June, not right after the last frost', () => {
    // Anchorage's last frost is May 7, Fairbanks's May 22, Kenai's May 28.
    expect(answerOn('when do tomatoes go outside', '99501', '2025-04-20')).toMatch(/Jun 1-15/);
    expect(answerOn('when do i plant squash outside', '99701', '2025-04-20')).toMatch(/Jun 1-15/);
    expect(answerOn('when do tomatoes go outside', '99611', '2025-04-20')).toMatch(/Jun 7-21/);
    expect(answerOn('when do i plant peas', '99501', '2025-04-20')).toMatch(/May 7-/);
  });

  it('waits for thawed ground in Alaska before cool crops go in', () => {
    const potatoes = (zipCode: string): string => answerOn('when do i plant potatoes', zipCode, '2025-03-20');
    expect(potatoes('99501')).toMatch(/plant seed potatoes May 7-Jun 18 .*ground thaws late/);
    expect(potatoes('99701')).toMatch(/plant seed potatoes May 22-/);
    // Elsewhere potatoes still go in 3 weeks before the last frost.
    expect(potatoes('55802')).toMatch(/3 weeks before to 6 weeks after last frost/);
  });

  it('starts cool crops indoors for Alaska as long before thawed ground as elsewhere before planting out', () => {
    const weeksIndoors = (zipCode: string): number => {
      const answer = answerOn('when do i start broccoli seeds', zipCode, '2025-01-20');
      const day = (pattern: RegExp): number => new Date(`${answer.match(pattern)?.[1] ?? ''} 2025`).getTime();
      return Math.round(
        (day(/plant them out (\w{3} \d+)/) - day(/indoors (\w{3} \d+)/)) / (7 * 24 * 3600 * 1000),
      );
    };
    expect(weeksIndoors('99501')).toBe(weeksIndoors('55802'));
    expect(answerOn('when do i start broccoli seeds', '99501', '2025-01-20')).toMatch(
      /Mar 12-26 .*6-8 weeks before planting out, then plant them out May 7-21/,
    );
  });

  it('says too late once a hot-summer fall window for a warm crop has closed', () => {
    for (const date of ['2027-07-25', '2027-08-15']) {
      const answer = answerOn('when should i plant tomatoes', '75201', date);
      expect(answer).not.toMatch(/still set out/);
      expect(answer).toMatch(/too late for tomatoes this season/);
    }
  });

  it('plants strawberries in fall only where summers are hot, not by zone alone', () => {
    const strawberries = (zipCode: string): string =>
      answerOn('when do i plant strawberries', zipCode, '2025-02-10');
    expect(strawberries('98103')).not.toMatch(/in fall/);
    expect(strawberries('98103')).toMatch(/plant strawberries/);
    expect(strawberries('77005')).toMatch(/plugs in fall/);
    expect(strawberries('30307')).toMatch(/late September-October in zone 8/);
  });

  it('times butternut and other winter squash as their own crop', () => {
    const sow = answerOn('when do i plant butternut squash', '37203', '2025-03-01');
    expect(sow).toMatch(/sow winter squash/);
    expect(sow).not.toMatch(/zucchini/);
    expect(answerOn('when do i pick butternut squash', '37203', '2025-03-01')).toMatch(
      /rind resists your thumbnail.*harvest around Jun 27-Aug 5/,
    );
  });

  it('reads "for a fall harvest" as planting from midsummer on', () => {
    expect(answerOn('what can i still plant now for a fall harvest', '53703', '2025-07-25')).toMatch(
      /^Plant for a fall harvest in zone 5b: .*(lettuce|kale|spinach)/,
    );
  });

  it('adapts planting answers to the date: now, later, too late', () => {
    const ask = (date: string): string =>
      adviseOffline({ question: 'when should I plant beans', zone: '6a', now: new Date(`${date}T12:00:00Z`) })
        .answer;
    expect(ask('2025-02-01')).toMatch(/sow beans Apr 24-May 8/);
    expect(ask('2025-04-30')).toMatch(/^Now's the time/);
    expect(ask('2025-06-01')).toMatch(/^Still a good time .*sow beans now/);
    expect(ask('2025-07-01')).toMatch(/late but not too late/);
    expect(ask('2025-10-01')).toMatch(/too late .* Next spring/);
  });

  it('offers fall planting for cool crops after spring', () => {
    expect(
      adviseOffline({ question: 'when to plant lettuce', zone: '6a', now: new Date('2025-07-20T12:00:00Z') })
        .answer,
    ).toMatch(/fall crop.*Aug 25-Sep 15/);
  });

  it('dates a harvest from the frost dates', () => {
    const garlic = adviseOffline({ question: 'when do I harvest garlic', zipCode: '55408', now: MAY });
    expect(garlic).toMatchObject({ topic: 'harvesting', entryId: 'crop-harvest:garlic' });
    expect(garlic.answer).toMatch(/zone 5a, expect to harvest around Jun 30-Jul 28/);
  });

  it('gives warm-climate timing in zones 10 and up', () => {
    expect(adviseOffline({ question: 'when do I plant tomatoes', zone: '10b' }).answer).toMatch(/zones 10\+/);
  });

  it('asks for a ZIP when the location is unknown, once per conversation, and never after a refusal', () => {
    expect(adviseOffline({ question: 'when do I plant peppers' }).answer).toMatch(/ZIP/);
    const asked = adviseOffline({
      question: 'when do I plant peppers',
      history: history('hi', 'Happy to help! Text your ZIP (e.g. ZIP 98101) for dates in your area.'),
    });
    expect(asked.answer).not.toMatch(/ZIP/);
    expect(adviseOffline({ question: 'when do I plant peppers', locationRefused: true }).answer).not.toMatch(
      /ZIP/,
    );
  });

  it('adapts to experience level', () => {
    const ask = (experienceLevel: string): string =>
      adviseOffline({
        question: 'when do I plant tomatoes',
        zone: '7a',
        experienceLevel,
        now: new Date('2025-01-10T12:00:00Z'),
      }).answer;
    expect(ask('beginner')).toMatch(/New to this\?/);
    expect(ask('advanced')).not.toMatch(/New to this\?/);
  });

  it('adapts seasonal answers to the season', () => {
    const summer = adviseOffline({
      question: 'when should I prune my roses',
      zone: '6a',
      now: new Date('2025-07-10T12:00:00Z'),
    });
    expect(summer.answer).toMatch(/^In summer just deadhead/);
  });

  it('adapts to the soil on the profile', () => {
    const clay = adviseOffline({ question: 'how do I improve my garden soil', soilType: 'clay', zone: '6a' });
    expect(clay.answer).toMatch(/Your clay soil/);
    expect(adviseOffline({ question: 'how do I improve my garden soil', zone: '6a' }).answer).not.toMatch(
      /Your clay soil/,
    );
  });

  it('asks a clarifying question when nothing matches', () => {
    for (const question of ['what is wrong with it', 'help', 'hmm my plant']) {
      const advice = adviseOffline({ question });
      expect(advice).toMatchObject({ topic: 'general', matched: false });
      expect(advice.answer).toMatch(/Tell me the plant/);
      expect(smsProblem(advice.answer)).toBeNull();
    }
  });

  it('always returns SMS-safe text, whatever the input', () => {
    for (const question of [
      '',
      '🌱🌱🌱',
      'x'.repeat(2000),
      'when do I plant “tomatoes” — and peppers…?',
      'ÀÉÎÕÜ?',
    ]) {
      const advice = adviseOffline({ question, zone: '7b' });
      expect(isGsm7(advice.answer)).toBe(true);
      expect(advice.answer.length).toBeLessThanOrEqual(306);
    }
  });
});

describe('answers specific to the question, the place and the season', () => {
  it('answers a shade question in Denver with shade plants hardy there, not a planting calendar', () => {
    const advice = adviseOffline({
      question: 'What can I plant in a shady spot?',
      zipCode: '80202',
      now: MAY,
    });
    expect(advice).toMatchObject({ entryId: 'shade-plants', topic: 'sunlight' });
    expect(advice.answer).toMatch(/zone 6a: hostas, ferns/);
    expect(plantsNotHardy(advice.answer, 6)).toEqual([]);
  });

  it('answers a balcony herb question in New York with herbs that overwinter in zone 7b', () => {
    const advice = adviseOffline({ question: 'What herbs grow well on a sunny balcony?', zipCode: '10001' });
    expect(advice).toMatchObject({ entryId: 'herbs-balcony', topic: 'herbs' });
    expect(advice.answer).toMatch(/basil, parsley, dill and cilantro/);
    expect(advice.answer).toMatch(/overwinter in pots in zone 7b: lavender, thyme, sage and oregano/);
  });

  it('answers garlic timing and an image-only message differently', () => {
    const garlic = adviseOffline({ question: 'When should I plant garlic?', zipCode: '97201', now: MAY });
    const image = adviseOffline({
      question: 'What can you tell me about this image?',
      zipCode: '97201',
      now: MAY,
    });
    expect(garlic.entryId).toBe('crop-timing:garlic');
    expect(garlic.answer).toMatch(/Nov 15/);
    expect(image).toMatchObject({ entryId: 'image-only', topic: 'general' });
    expect(image.answer).toMatch(/^I can't see photos right now/);
    expect(image.answer).toMatch(/describe it/);
  });

  it('waters by climate: the desert Southwest and the Pacific Northwest differ', () => {
    const ask = (zipCode: string): string =>
      adviseOffline({
        question: 'how often should I water my garden',
        zipCode,
        now: new Date('2025-07-01T12:00:00Z'),
      }).answer;
    expect(ask('85004')).toMatch(/desert Southwest, plan on 2-3 deep waterings a week/);
    expect(ask('97201')).toMatch(/Pacific Northwest, rain covers you Oct-May/);
  });

  it('recommends lawn grasses by region, not only by zone', () => {
    const ask = (zipCode: string): string =>
      adviseOffline({ question: 'what kind of grass should I plant', zipCode }).answer;
    expect(ask('98101')).toMatch(/ryegrass and fine fescue/);
    expect(ask('98101')).not.toMatch(/Bermuda|St\. Augustine/);
    expect(ask('30303')).toMatch(/Bermuda/);
    expect(ask('87102')).toMatch(/buffalo grass|blue grama/);
  });

  it('names natives of the asker region', () => {
    const pnw = adviseOffline({ question: 'what native shrubs should I plant', zipCode: '98101' });
    expect(pnw.answer).toMatch(/Pacific Northwest.*Oregon grape/);
    const texas = adviseOffline({ question: 'what native plants should I plant', zipCode: '78701' });
    expect(texas.answer).toMatch(/South Central/);
    expect(texas.answer).not.toMatch(/Oregon grape/);
  });
});

describe('follow-ups read in the context of the conversation', () => {
  it('answers "what about peppers?" as the earlier planting question about peppers', () => {
    const advice = adviseOffline({
      question: 'what about peppers?',
      zipCode: '75201',
      now: new Date('2025-02-01T12:00:00Z'),
      history: history(
        'when do I plant tomatoes?',
        'In zone 8b (last frost ~Mar 14), set out tomato transplants',
      ),
    });
    expect(advice).toMatchObject({
      followUp: true,
      entryId: 'crop-timing:pepper',
      question: 'when do i plant peppers',
    });
    expect(advice.answer).toMatch(/pepper transplants Mar 28-Apr 11/);
  });

  it('answers "and when do I harvest it?" about the crop asked before', () => {
    const advice = adviseOffline({
      question: 'and when do I harvest it?',
      zipCode: '55408',
      now: MAY,
      history: history('when should I plant garlic', 'In zone 5a...'),
    });
    expect(advice).toMatchObject({ followUp: true, entryId: 'crop-harvest:garlic' });
  });

  it('chains follow-ups and keeps pests with pests', () => {
    const chained = adviseOffline({
      question: 'and squash?',
      zipCode: '60601',
      now: new Date('2025-02-15T12:00:00Z'),
      history: history('when do i plant tomatoes', '...', 'what about cucumbers?', '...'),
    });
    expect(chained.entryId).toBe('crop-timing:squash');
    const pests = adviseOffline({
      question: 'what about slugs?',
      history: history('aphids on my roses', '...'),
    });
    expect(pests.entryId).toBe('slugs');
  });

  it('continues a short question with no subject of its own', () => {
    const spacing = adviseOffline({
      question: 'how far apart?',
      history: history('when do I plant tomatoes', '...'),
    });
    expect(spacing.entryId).toBe('crop-spacing:tomato');
    const mildew = adviseOffline({
      question: 'what should I do?',
      history: history('white powder on my squash leaves', '...'),
    });
    expect(mildew.entryId).toBe('powdery-mildew');
  });

  it('takes plain chat turns too, and leaves a question that stands alone as it is', () => {
    const advice = adviseOffline({
      question: 'what can I plant now?',
      zipCode: '97201',
      now: MAY,
      history: [{ role: 'user', content: 'when do I plant tomatoes?' }],
    });
    expect(advice).toMatchObject({ followUp: false, entryId: 'what-to-plant' });
  });

  it('skips messages about nothing (a ZIP reply) when looking back', () => {
    const advice = adviseOffline({
      question: 'what about peppers?',
      zipCode: '75201',
      now: new Date('2025-02-01T12:00:00Z'),
      history: history('when do I plant tomatoes?', '...', '97201', 'Thanks! You are in zone 8b.'),
    });
    expect(advice.entryId).toBe('crop-timing:pepper');
  });
});
