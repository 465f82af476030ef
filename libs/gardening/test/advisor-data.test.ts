import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { adviseOffline, isGsm7 } from '@sprout/gardening';
import { buildContext } from '../src/advisor/context';
import {
  ADVISOR_DATA_DIR,
  AdvisorDataError,
  advisorKnowledge,
  readAdvisorKnowledge,
} from '../src/advisor/knowledge/load';
import { composeParts, renderParts } from '../src/advisor/knowledge/render';
import { ADVISOR_REGIONS, TopicFileSchema } from '../src/advisor/knowledge/schema';
import { compileTerms } from '../src/advisor/knowledge/terms';
import { plantsNamedIn, plantsNotHardy } from '../src/advisor/plants';

const knowledge = advisorKnowledge();
const topicFiles = fs.readdirSync(path.join(ADVISOR_DATA_DIR, 'topics')).filter((f) => f.endsWith('.json'));

/** Gardeners the answers must work for: no location, a zone alone, and a ZIP in every region. */
const ZIPS = [null, '97201', '98101', '85004', '87102', '80202', '59601', '55408', '60601', '10001', '02108'];
const MORE_ZIPS = ['21201', '30303', '33101', '77002', '78701', '90012', '95814', '99501'];
const ZONES = ['3a', '4b', '5b', '6a', '7b', '8a', '9a', '10b', '11a'];
const DATES = ['2025-01-05', '2025-04-01', '2025-07-04', '2025-10-01'];
const gardeners = [
  ...[...ZIPS, ...MORE_ZIPS].map((zipCode) => ({ zipCode, zone: null })),
  ...ZONES.map((zone) => ({ zipCode: null, zone })),
];
/** Crop questions are asked for every crop, by fewer gardeners. */
const cropGardeners = [null, '97201', '85004', '55408', '30303', '33101'].map((zipCode) => ({
  zipCode,
  zone: null,
}));

describe('the knowledge files', () => {
  it('are read and validated from data/advisor, one file per topic', () => {
    expect(readAdvisorKnowledge(ADVISOR_DATA_DIR).files).toBe(topicFiles.length + 6);
    expect(topicFiles.length).toBeGreaterThanOrEqual(25);
    for (const file of topicFiles) {
      const parsed = TopicFileSchema.safeParse(
        JSON.parse(fs.readFileSync(path.join(ADVISOR_DATA_DIR, 'topics', file), 'utf8')),
      );
      expect(parsed.success).toBe(true);
    }
    expect(knowledge.entries.length).toBeGreaterThanOrEqual(250);
    expect(knowledge.crops.length).toBeGreaterThanOrEqual(40);
    expect(knowledge.plants.length).toBeGreaterThanOrEqual(250);
  });

  it('name native trees, shrubs and shade plants for every region but the Pacific Islands', () => {
    const thin: string[] = [];
    for (const region of ADVISOR_REGIONS.filter((r) => r !== 'Pacific Islands')) {
      for (const tag of ['native-tree', 'native-shrub', 'native-shade']) {
        const named = knowledge.plants.filter(
          (p) => p.tags.includes(tag) && (p.native ?? []).includes(region),
        );
        if (named.length < 2) thin.push(`${region} ${tag}: ${named.length}`);
      }
    }
    expect(thin).toEqual([]);
  });

  it('hold only plain text: no curly quotes, long dashes or emoji that force UCS-2 SMS', () => {
    for (const file of [
      'vocabulary.json',
      'crops.json',
      'plants.json',
      ...topicFiles.map((f) => `topics/${f}`),
    ]) {
      const text = fs.readFileSync(path.join(ADVISOR_DATA_DIR, file), 'utf8');
      expect({ file, plain: /^[\x20-\x7e\n]*$/.test(text) }).toEqual({ file, plain: true });
    }
  });

  it('rejects a broken copy, naming the file, the entry and the problem', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'advisor-data-'));
    try {
      fs.cpSync(ADVISOR_DATA_DIR, dir, { recursive: true });
      type Data = { entries: Array<{ id: string; answer: unknown[]; keywords: string[] }> };
      const edit = (name: string, change: (data: Data) => void): void => {
        const file = path.join(dir, 'topics', name);
        const data = JSON.parse(fs.readFileSync(file, 'utf8')) as Data;
        change(data);
        fs.writeFileSync(file, JSON.stringify(data));
      };
      edit('pests.json', (data) => {
        if (data.entries[0]) data.entries[0].answer = ['Spray at dusk with \u201cneem\u201d.'];
      });
      edit('weeds.json', (data) => {
        const [first, second] = data.entries;
        if (!first || !second) throw new Error('weeds.json needs two entries');
        first.keywords.push('@no-such-group');
        first.answer = ['Pull them at {dusk}.'];
        data.entries.push(second);
      });
      let error: unknown;
      try {
        readAdvisorKnowledge(dir);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(AdvisorDataError);
      const problems = (error as AdvisorDataError).problems.join('\n');
      expect(problems).toMatch(/pests\.json: entry "aphids": answer\.0: plain ASCII only/);
      expect(problems).toMatch(
        /weeds\.json: entry "weeds-general": keywords: unknown vocabulary group @no-such-group/,
      );
      expect(problems).toMatch(/weeds\.json: entry "weeds-general": answer 1: unknown placeholder \{dusk\}/);
      expect(problems).toMatch(/weeds\.json: entry "weeds-pavers": id already used in weeds\.json/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads terms as a gardener writes them: plurals, word starts, gaps and vocabulary groups', () => {
    const vocabulary = new Map([['bug', ['aphid', 'whitefl*']]]);
    const match = (terms: string[], text: string): boolean => compileTerms(terms, vocabulary).test(text);
    expect(match(['berry'], 'my berries')).toBe(true);
    expect(match(['prun*'], 'when to prune')).toBe(true);
    expect(match(['how often ... water'], 'how often should i water')).toBe(true);
    expect(match(['@bug'], 'whiteflies again')).toBe(true);
    expect(match(['ant'], 'plant food')).toBe(false);
  });
});

describe('the question forms', () => {
  const examples = knowledge.entries.flatMap((entry) =>
    entry.examples.map((question) => ({ entry, question })),
  );

  it('number at least 300, beside the crop questions answered for every crop', () => {
    expect(examples.length).toBeGreaterThanOrEqual(300);
    const cropEntries = knowledge.entries.filter((e) => e.subject === 'crop');
    expect(cropEntries.length * knowledge.crops.length).toBeGreaterThanOrEqual(300);
  });

  it('are each answered by their own entry', () => {
    const misrouted = examples
      .map(({ entry, question }) => ({
        question,
        expected: entry.id,
        got: adviseOffline({ question, zone: '6b', now: new Date('2025-03-10T12:00:00Z') }).entryId.split(
          ':',
        )[0],
      }))
      .filter((r) => r.got !== r.expected);
    expect(misrouted).toEqual([]);
  });
});

describe('every entry, for every gardener', () => {
  const rendered = new Map<
    string,
    { id: string; zone: number | null; question: string; text: string; exempt: readonly string[] }
  >();
  const empty: string[] = [];
  for (const entry of knowledge.entries) {
    if (!entry.answer) continue;
    const crops = entry.subject === 'crop' ? knowledge.crops : [null];
    for (const crop of crops) {
      for (const gardener of crop ? cropGardeners : gardeners) {
        for (const date of DATES) {
          for (const level of crop ? [null] : [null, 'beginner', 'advanced']) {
            const question = `${entry.examples[0] ?? ''}${crop ? ` ${crop.name}` : ''}`;
            const ctx = buildContext({
              question,
              ...gardener,
              experienceLevel: level,
              soilType: 'clay',
              now: new Date(`${date}T12:00:00Z`),
            });
            const parts = renderParts(entry.answer, ctx, crop, knowledge);
            if (parts.length === 0) {
              empty.push(`${entry.id} ${crop?.name ?? ''} ${gardener.zipCode ?? gardener.zone}`);
              continue;
            }
            const text = composeParts(parts);
            // The same text for the same zone needs checking once.
            rendered.set(`${entry.id}|${question}|${ctx.zoneNumber}|${text}`, {
              id: entry.id,
              zone: ctx.zoneNumber,
              question,
              text,
              exempt: entry.about,
            });
          }
        }
      }
    }
  }

  it('has an answer', () => {
    expect(empty).toEqual([]);
    expect(rendered.size).toBeGreaterThan(5_000);
  });

  it('is GSM-7, within two segments, with every placeholder filled', () => {
    const bad = [...rendered.values()].filter(
      (r) =>
        !isGsm7(r.text) ||
        r.text.length > 306 ||
        r.text.length < 20 ||
        /[{}]|undefined|null|NaN/.test(r.text),
    );
    expect(bad.slice(0, 5)).toEqual([]);
  });

  it('names only plants hardy in the zone (besides the plants asked about)', () => {
    const problems = new Set<string>();
    for (const r of rendered.values()) {
      for (const plant of plantsNotHardy(r.text, r.zone, { question: r.question, exempt: r.exempt })) {
        problems.add(`${r.id}: zone ${r.zone} names ${plant.name} (${plant.zones.join('-')})`);
      }
    }
    expect([...problems]).toEqual([]);
  });

  it('names plant lists from the catalog, filtered by zone', () => {
    const zone3 = adviseOffline({ question: 'what perennials grow in my zone', zone: '3a' }).answer;
    const zone10 = adviseOffline({ question: 'what perennials grow in my zone', zone: '10b' }).answer;
    expect(plantsNamedIn(zone3).length).toBeGreaterThanOrEqual(5);
    expect(plantsNamedIn(zone10).length).toBeGreaterThanOrEqual(5);
    expect(plantsNotHardy(zone3, 3)).toEqual([]);
    expect(plantsNotHardy(zone10, 10)).toEqual([]);
  });
});
