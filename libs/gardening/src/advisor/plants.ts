import { advisorKnowledge, type AdvisorKnowledge, type Plant } from './knowledge/load';
import { isHardyIn } from './knowledge/placeholders';
import { normalizeText } from './knowledge/terms';
import { buildLexicon, closest, type Lexicon } from './retrieval/reader';

/** A plant an answer names outside the zones where it survives winter. */
export interface NotHardyPlant {
  name: string;
  zones: readonly [number, number];
}

interface PlantScanner {
  /** Every name and alias of every plant, longest first, as one pattern. */
  any: RegExp;
  /** Each plant's names, anchored, to tell which plant a found name belongs to. */
  each: ReadonlyArray<{ plant: Plant; whole: RegExp }>;
}

let scanner: PlantScanner | null = null;

function plantScanner(): PlantScanner {
  if (scanner) return scanner;
  const plants = advisorKnowledge().plants;
  const sources = plants
    .map((p) => p.pattern.source.replace(/^\(\?<!\[a-z0-9\]\)\(\?:/, '').replace(/\)\(\?!\[a-z0-9\]\)$/, ''))
    .flatMap((source) => splitAlternatives(source))
    .sort((a, b) => b.length - a.length);
  scanner = {
    any: new RegExp(`(?<![a-z0-9])(?:${sources.join('|')})(?![a-z0-9])`, 'g'),
    each: plants.map((plant) => ({ plant, whole: new RegExp(`^(?:${plant.pattern.source})$`) })),
  };
  return scanner;
}

/** The top-level alternatives of a pattern source ("a|b(?:c|d)" -> ["a", "b(?:c|d)"]). */
function splitAlternatives(source: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') i++;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === '|' && depth === 0) {
      out.push(source.slice(start, i));
      start = i + 1;
    }
  }
  out.push(source.slice(start));
  return out;
}

/**
 * The plants of the catalog (plants.json) named in a text. The longest name wins where names
 * overlap, so "African iris" is not also read as "iris". Annuals and houseplants are included.
 */
export function plantsNamedIn(text: string): Plant[] {
  const { any, each } = plantScanner();
  const found = new Set<Plant>();
  any.lastIndex = 0;
  const normalized = normalizeText(text);
  for (let m = any.exec(normalized); m; m = any.exec(normalized)) {
    const name = m[0];
    const owner = each.find(({ whole }) => whole.test(name));
    if (owner) found.add(owner.plant);
  }
  return [...found];
}

/**
 * The plants an answer names that would not survive winter outdoors in a zone (perennials, shrubs,
 * trees, fruit, herbs, grasses, bulbs), leaving out those the gardener asked about and those in
 * `exempt` (an entry's "about" list). Empty when the zone is unknown.
 */
export function plantsNotHardy(
  answer: string,
  zoneNumber: number | null,
  options: { question?: string; exempt?: readonly string[] } = {},
): NotHardyPlant[] {
  if (zoneNumber === null) return [];
  const asked = new Set(options.question ? plantsNamedIn(options.question).map((p) => p.name) : []);
  const exempt = new Set(options.exempt ?? []);
  return plantsNamedIn(answer)
    .filter((p) => p.zones && !asked.has(p.name) && !exempt.has(p.name) && !isHardyIn(p, zoneNumber))
    .map((p) => ({ name: p.name, zones: p.zones as [number, number] }));
}

/** Plant names that also have an everyday meaning ("rose early", "the palm of my hand", "Holly"). */
const EVERYDAY_MEANINGS = new Set(
  `ash rose palm palms iris holly lily jade american pine orange apple sage mint date roma mater bean
  beans corn lime chile chili pepper turkey coffee banana lemon melon onion potato potatoes garlic
  olive cherry peach plum pear fig basil thyme heather daisy violet ivy jasmine hazel willow laurel
  poppy ginger grape grapes cedar birch oak elm maple rosemary squash pumpkin mustard`.split(/\s+/),
);

/** The plants entries are about and the catalog's names and aliases, as written. */
export function entryAndCatalogPlantNames(knowledge: Pick<AdvisorKnowledge, 'entries' | 'plants'>): string[] {
  return [
    ...knowledge.entries.flatMap((e) => e.plants),
    ...knowledge.plants.flatMap((p) => [p.name, ...(p.aliases ?? [])]),
  ];
}

let plantNames: ReadonlySet<string> | null = null;

/** Shorter words are too close to everyday ones ("peace" and "peach", "union" and "onion"). */
const MIN_CORRECTED = 7;

/**
 * The words as the gardener meant them: shorthand written out ("strawbs") and a long word one or
 * two letters off a plant name of one word taken as that name ("brocolli", "zuchini").
 */
function meantWords(words: readonly string[], names: ReadonlySet<string>): string[] {
  const { shorthand } = advisorKnowledge().language;
  return words.flatMap((word) => {
    const written = shorthand.get(word);
    if (written !== undefined) return written.split(' ');
    if (word.length < MIN_CORRECTED || names.has(word)) return [word];
    return [closest(word, plantLexicon(names)) ?? word];
  });
}

let oneWordNames: Lexicon | null = null;

/** The plant names of one word, as a lexicon to correct spellings to. */
function plantLexicon(names: ReadonlySet<string>): Lexicon {
  oneWordNames ??= buildLexicon([...names].filter((name) => !name.includes(' ')));
  return oneWordNames;
}

/** Every plain plant name of the knowledge (catalog, crops, entries' plants), lower case. */
function knownPlantNames(): ReadonlySet<string> {
  if (plantNames) return plantNames;
  const knowledge = advisorKnowledge();
  const names = [...entryAndCatalogPlantNames(knowledge), ...knowledge.crops.flatMap((c) => c.names)]
    .map((n) => n.toLowerCase().trim())
    .filter((n) => /^[a-z][a-z' -]*[a-z]$/.test(n) && n.length >= 3 && !EVERYDAY_MEANINGS.has(n));
  plantNames = new Set(names);
  return plantNames;
}

/**
 * Whether a lower-case text names a plant the knowledge knows ("feral pigs dug up my taro",
 * "elk eating my aspens"), by one to three words, singular or plural. Names with an everyday
 * meaning count only inside a longer name ("mountain ash", "date palm").
 */
export function namesKnownPlant(lower: string): boolean {
  const names = knownPlantNames();
  const words = meantWords(lower.match(/[a-z]+(?:'[a-z]+)?/g) ?? [], names);
  const known = (name: string): boolean =>
    names.has(name) ||
    (name.endsWith('s') && names.has(name.slice(0, -1))) ||
    (name.endsWith('es') && names.has(name.slice(0, -2)));
  for (let i = 0; i < words.length; i++) {
    for (let n = 1; n <= 3 && i + n <= words.length; n++) {
      if (known(words.slice(i, i + n).join(' '))) return true;
    }
  }
  return false;
}
