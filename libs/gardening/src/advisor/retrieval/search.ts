import MiniSearch from 'minisearch';
import { detectLocation, type LocationDetection } from '../../location/detect-location';
import { STATE_NAMES_LOWER, stateName } from '../../places/states';
import type { Season } from '../../places/season';
import { advisorKnowledge, type AdvisorKnowledge, type Entry } from '../knowledge/load';
import type { AdvisorRegion } from '../knowledge/schema';
import { normalizeText, termPrefilter } from '../knowledge/terms';
import { entryAndCatalogPlantNames } from '../plants';
import { buildLexicon, readText, type Lexicon } from './reader';
import { stem } from './stem';

/**
 * Retrieval over the knowledge entries: BM25 (MiniSearch) over the fields a horticulturist edits
 * (label, keywords, symptoms, the questions as gardeners ask them, plants, and the answer itself),
 * with stemming, fuzzy and prefix matching, synonyms (synonyms.json) at reduced weight, words
 * carried over from the conversation at lower weight, and a lift for entries that fit the
 * gardener's region and season. Entries about "the crop in the question" match the token CROP_TOKEN,
 * which a question naming a crop carries.
 */

/** The entry for questions too vague to answer. */
export const GENERAL = 'general';

/** Stands for any crop of crops.json, in crop entries and in questions that name one. */
const CROP_TOKEN = 'thecrop';

const FIELD_BOOST = { label: 3, keywords: 2.5, symptoms: 2.5, questions: 2, plants: 1.5, answer: 0.4 };
const SYNONYM_WEIGHT = 0.5;
/** How much a word carried over from earlier turns counts, relative to the question's own. */
const CONTEXT_WEIGHT = 0.35;
/** Below this much (summed word weights), a question's own words say too little to stand alone. */
const VAGUE_WEIGHT = 3;
const REGION_FIT = 1.4;
const REGION_MISFIT = 0.6;
const SEASON_FIT = 1.15;
const SEASON_MISFIT = 0.85;
/** Scores are scaled from this (no question word matched) to 1 (all of them). */
const COVERAGE_FLOOR = 0.2;
/** Scores are scaled from this (none of the entry's label in the question) to 1 (all of it). */
const LABEL_FLOOR = 0.7;
/** An entry about the plant the question names, or about other plants than it names. */
const PLANT_FIT = 1.2;
const PLANT_MISFIT = 0.3;
/** A question naming a place favours entries whose answer depends on where the gardener is. */
const PLACE_FIT = 1.3;
/** How telling (weightOf) a word of a plant's longer name must be to name the plant on its own. */
const TELLING_PLANT_WORD = 2.5;

interface Doc {
  id: string;
  label: string;
  keywords: string;
  symptoms: string;
  questions: string;
  plants: string;
  answer: string;
}

export interface Hit {
  entry: Entry;
  score: number;
  /** The share of the question's words (each by how telling it is) the entry matched, 0-1. */
  coverage: number;
  /** Stems of the question's own words (not synonyms or context) the entry matched. */
  own: string[];
  /** Those of them matched in what the entry is about (not only in its answer's text). */
  about: string[];
  /** How many words carried over from the conversation (not the question's own) the entry matched. */
  carried: number;
  /** How the entry's plants fit the plants the question names: 1 (neutral), PLANT_FIT or PLANT_MISFIT. */
  fit: number;
}

/** What is searched: the question, words from the conversation, and where and when it is asked. */
export interface SearchQuery {
  /** The question as read (readQuestion). */
  text: string;
  /** Words of earlier turns the question continues, weighted lower. */
  context?: string;
  /** A crop of crops.json is named (crop entries apply). */
  crop: boolean;
  region: AdvisorRegion | null;
  season: Season | null;
  /** Stems of a place the question names: they say where, not what (see placeStems). */
  place?: readonly string[];
}

/** An entry found for a question: its score, and the share of the question (by word weight) it covers. */

export interface Retriever {
  lexicon: Lexicon;
  index: MiniSearch<Doc>;
  /** The entries a question rules out (their `exclude` terms), found through the terms' first words. */
  excluded: (words: readonly string[]) => ReadonlySet<string>;
  /** The stems of each entry's label. */
  labelStems: ReadonlyMap<string, readonly string[]>;
  /** The stems of every entry's plants. */
  allPlantStems: ReadonlySet<string>;
  /**
   * Words of longer plant names that say little on their own ("fruit" of "dragon fruit", "tree" of
   * "tree of heaven"): a question whose only plant words are these names no plant in particular.
   */
  genericPlantStems: ReadonlySet<string>;
  /** The stems of each entry's plants. */
  plantStems: ReadonlyMap<string, readonly string[]>;
  /** Every crop's names (global), to mark where a question names a crop. */
  cropPatterns: readonly RegExp[];
  byId: ReadonlyMap<string, Entry>;
  /** How telling each stem is: ln(entries / entries using it); UNKNOWN_WEIGHT for stems no entry uses. */
  weightOf: (stem: string) => number;
  /** Stem -> the stems of its synonym groups. */
  synonyms: ReadonlyMap<string, readonly string[]>;
  /** Every term the index holds: a question's term found here is not matched by near spellings. */
  indexed: ReadonlySet<string>;
  knowledge: AdvisorKnowledge;
}

/** The weight of a word no entry uses (a plant name the knowledge does not list, say): it counts, but less. */
const UNKNOWN_WEIGHT = 1.5;

/** Fields whose entries are phrases: they also index pairs of neighbouring words ("when_plant"). */
const PHRASE_FIELDS = new Set(['keywords', 'symptoms', 'questions']);

/** Neighbouring stems joined, the phrase terms of the index. */
const bigrams = (stems: readonly string[]): string[] =>
  stems.slice(1).map((s, i) => `${stems[i] ?? ''}_${s}`);

/** Words of a term as indexed: "prun*" is "prun", "how often ... water" is its words. */
const termText = (term: string): string => term.replace(/\.\.\./g, ' ').replace(/\*/g, '');

/** The text of every option of an answer, placeholders left out. */
function answerText(entry: Entry): string {
  return (entry.answer ?? [])
    .flatMap((part) => part.map((o) => o.text))
    .join(' ')
    .replace(/\{[^{}]*\}/g, ' ');
}

function buildRetriever(knowledge: AdvisorKnowledge): Retriever {
  const { irregular, stopwords } = knowledge.language;
  const cropNames = knowledge.crops.map((c) => new RegExp(c.pattern.source, 'g'));
  const withoutCrops = (text: string): string =>
    cropNames.reduce((t, p) => t.replace(p, CROP_TOKEN), normalizeText(text));
  const docs: Doc[] = knowledge.entries
    .filter((e) => e.keywords.length > 0)
    .map((e) => {
      const crop = e.subject === 'crop';
      return {
        id: e.id,
        label: e.label,
        keywords: e.keywords.map((k) => (k === '@crop' ? CROP_TOKEN : termText(k))).join(' ; '),
        symptoms: e.symptoms.join(' ; '),
        questions: e.examples.map((q) => (crop ? withoutCrops(q) : q)).join(' ; '),
        plants: e.plants.join(' ; '),
        // The general answer talks about everything; only its keywords (vague questions) count.
        answer: e.id === GENERAL ? '' : answerText(e),
      };
    });
  const phrases = (text: string, field = ''): string[] => {
    if (!PHRASE_FIELDS.has(field)) return normalizeText(text).split(' ');
    const out: string[] = [];
    for (const phrase of text.split(';')) {
      for (const piece of phrase.split('...')) {
        const words = normalizeText(piece).split(' ').filter(Boolean);
        const stems = words.filter((w) => !stopwords.has(w)).map((w) => stem(w, irregular));
        // A keyword of several words is a phrase: it counts only as such ("poison ivy" is not "poison").
        if (field !== 'keywords' || stems.length <= 1) out.push(...words);
        out.push(...bigrams(stems));
      }
    }
    return out;
  };
  const processTerm = (term: string): string | null =>
    term === '' || stopwords.has(term) ? null : term.includes('_') ? term : stem(term, irregular);
  const fields = ['label', 'keywords', 'symptoms', 'questions', 'plants', 'answer'] as const;
  const index = new MiniSearch<Doc>({ fields: [...fields], tokenize: phrases, processTerm });
  index.addAll(docs);
  const indexed = new Set(
    docs.flatMap((d) =>
      fields.flatMap((f) => phrases(d[f], f).map(processTerm)).filter((t): t is string => t !== null),
    ),
  );
  const synonyms = new Map<string, string[]>();
  for (const group of knowledge.synonyms) {
    const stems = group.map((w) =>
      normalizeText(w)
        .split(' ')
        .map((x) => stem(x, irregular))
        .join(' '),
    );
    for (const s of stems) {
      if (s.includes(' ')) continue;
      synonyms.set(s, [...(synonyms.get(s) ?? []), ...stems.filter((o) => o !== s)]);
    }
  }
  const lexicon = buildLexicon([
    ...docs.flatMap((d) => [d.label, d.keywords, d.symptoms, d.questions, d.plants, d.answer]),
    ...knowledge.crops.flatMap((c) => [c.name, ...c.names]),
    ...knowledge.plants.flatMap((p) => [p.name, ...(p.aliases ?? [])]),
    ...knowledge.synonyms.flat(),
    ...knowledge.language.shorthand.values(),
  ]);
  const df = new Map<string, number>();
  for (const doc of docs) {
    const stems = new Set(
      Object.values(doc)
        .flatMap((text: string) => normalizeText(text).split(' '))
        .filter((w) => w !== '' && !stopwords.has(w))
        .map((w) => stem(w, irregular)),
    );
    for (const st of stems) df.set(st, (df.get(st) ?? 0) + 1);
  }
  const weightOf = (st: string): number => {
    const n = df.get(st);
    return n === undefined ? UNKNOWN_WEIGHT : Math.log((docs.length + 1) / n);
  };
  const plantStems = new Map(
    knowledge.entries.map((e) => [e.id, e.plants.flatMap((p) => contentStems(p, knowledge))]),
  );
  const names = entryAndCatalogPlantNames(knowledge).map((n) => contentStems(n, knowledge));
  const oneWord = new Set(names.filter((stems) => stems.length === 1).flat());
  return {
    lexicon,
    index,
    plantStems,
    excluded: exclusionIndex(knowledge),
    labelStems: new Map(knowledge.entries.map((e) => [e.id, contentStems(e.label, knowledge)])),
    // Entries' plants, and the catalog's plants of one word ("mango", "banana"): a question naming
    // one of those is about that plant, whatever the entry.
    allPlantStems: new Set([...[...plantStems.values()].flat(), ...oneWord]),
    genericPlantStems: new Set(
      names.flat().filter((w) => !oneWord.has(w) && weightOf(w) < TELLING_PLANT_WORD),
    ),
    cropPatterns: cropNames,
    byId: knowledge.byId,
    synonyms,
    indexed,
    knowledge,
    weightOf,
  };
}

/**
 * The question read for search: shorthand, spelling, and the crop token when a crop is named.
 * `located`: the text's location when already detected.
 */
export function readQuestion(
  text: string,
  retriever: Retriever,
  known: readonly string[] = [],
  located?: LocationDetection,
): string {
  const keep = new Set(placeNames(text, known, located).flatMap((n) => normalizeText(n).split(' ')));
  return readText(text, retriever.knowledge, retriever.lexicon, keep);
}

/** The content stems of a text (stopwords dropped). */
export function contentStems(text: string, knowledge: AdvisorKnowledge): string[] {
  const { irregular, stopwords } = knowledge.language;
  return normalizeText(text)
    .split(' ')
    .filter((w) => w !== '' && !stopwords.has(w))
    .map((w) => stem(w, irregular));
}

/** The forms a term word matches: itself and its plural ("berry" also "berries"), as the data files write them. */
function wordForms(word: string): Set<string> {
  const forms = new Set([word, `${word}s`, `${word}es`]);
  if (/[^aeiou]y$/.test(word)) forms.add(`${word.slice(0, -1)}ies`);
  return forms;
}

/** A term ("too late to", "prun*", "how often ... water") as a test over a question's words. */
function termMatcher(term: string): (words: readonly string[]) => boolean {
  const steps: Array<{ gap: boolean; test: (w: string) => boolean }> = [];
  let gap = false;
  for (const part of term.trim().split(/\s+/)) {
    if (part === '...') {
      gap = true;
      continue;
    }
    const star = part.endsWith('*');
    for (const word of normalizeText(star ? part.slice(0, -1) : part)
      .split(' ')
      .filter(Boolean)) {
      const forms = wordForms(word);
      steps.push({ gap, test: star ? (w) => w.startsWith(word) : (w) => forms.has(w) });
      gap = false;
    }
  }
  if (steps.length === 0) return () => false;
  return (words) => {
    const from = (i: number, step: number): boolean => {
      const s = steps[step];
      if (!s) return true;
      const reach = step === 0 ? words.length : s.gap ? Math.min(words.length, i + 5) : i + 1;
      for (let j = i; j < reach; j++) {
        if (s.test(words[j] ?? '') && from(j + 1, step + 1)) return true;
      }
      return false;
    };
    return from(0, 0);
  };
}

/**
 * The exclusions of every entry, indexed by the words their terms can start with, so a question
 * tests only the few terms its own words could begin (a term is tested only when one might match).
 */
function exclusionIndex(knowledge: AdvisorKnowledge): (words: readonly string[]) => ReadonlySet<string> {
  type Rule = { id: string; test: (words: readonly string[]) => boolean };
  const byWord = new Map<string, Rule[]>();
  const byPrefix: Array<{ prefix: string; rule: Rule }> = [];
  const always: Rule[] = [];
  for (const entry of knowledge.entries) {
    for (const term of entry.exclude) {
      const rule = { id: entry.id, test: termMatcher(term) };
      const filter = termPrefilter([term]);
      if (filter.always) always.push(rule);
      for (const word of filter.words) byWord.set(word, [...(byWord.get(word) ?? []), rule]);
      for (const prefix of filter.prefixes) byPrefix.push({ prefix, rule });
    }
  }
  return (words) => {
    const out = new Set<string>();
    const tryRule = (rule: Rule): void => {
      if (!out.has(rule.id) && rule.test(words)) out.add(rule.id);
    };
    always.forEach(tryRule);
    for (const word of words) {
      byWord.get(word)?.forEach(tryRule);
      for (const { prefix, rule } of byPrefix) if (word.startsWith(prefix)) tryRule(rule);
    }
    return out;
  };
}

/** Entries ranked for a query, best first; entries the question rules out are left out. */
export function search(query: SearchQuery, retriever: Retriever, limit = 8): Hit[] {
  const { knowledge } = retriever;
  const own = contentStems(query.text, knowledge);
  // The crop stands where it was named, so "plant_thecrop" meets the crop entries' phrases.
  const marked = retriever.cropPatterns.reduce((t, p) => t.replace(p, CROP_TOKEN), query.text);
  const positional = contentStems(marked, knowledge);
  // A crop named only earlier in the conversation is context, not the question's own word.
  if (query.crop && marked !== query.text) own.push(CROP_TOKEN);
  if (own.length === 0) return [];
  const weights = new Map<string, number>();
  for (const s of [...own, ...bigrams(positional), ...bigrams(contentStems(query.text, knowledge))]) {
    weights.set(s, 1);
  }
  // A synonym found counts as the question's own word it stands for.
  const origin = new Map<string, string>();
  for (const s of own) {
    for (const syn of retriever.synonyms.get(s) ?? []) {
      for (const part of syn.split(' ')) {
        if (weights.has(part)) continue;
        weights.set(part, SYNONYM_WEIGHT);
        origin.set(part, s);
      }
    }
  }
  const context = query.context ? contentStems(query.context, knowledge) : [];
  // A question that says little of its own ("what should I do?") is mostly about the conversation.
  const told = own.reduce((sum, w) => sum + (w === CROP_TOKEN ? 0 : retriever.weightOf(w)), 0);
  const contextWeight = told < VAGUE_WEIGHT ? 1 : CONTEXT_WEIGHT;
  // The earlier question's phrases too ("blossom end rot"), which its single words do not reach.
  const contextOnly = new Set<string>();
  for (const s of [...context, ...bigrams(context)]) {
    if (weights.has(s)) continue;
    weights.set(s, contextWeight);
    contextOnly.add(s);
  }
  // The crop of the conversation is the subject of a question that names no plant of its own.
  const cropWords = own.filter((w) => w !== CROP_TOKEN && !positional.includes(w));
  const ownNamed = own.filter((w) => retriever.allPlantStems.has(w) || cropWords.includes(w));
  if (query.crop && !weights.has(CROP_TOKEN))
    weights.set(CROP_TOKEN, ownNamed.length > 0 ? contextWeight : 1);
  // What an entry should cover: the question's words (with the conversation's, when it says little).
  // The crop token only stands for the crop's name, so it is not a word of its own.
  const ownSet = new Set([...own, ...(contextWeight === 1 ? context : [])]);
  ownSet.delete(CROP_TOKEN);
  const place = new Set(query.place ?? []);
  for (const w of place) ownSet.delete(w);
  const total = [...ownSet].reduce((sum, w) => sum + retriever.weightOf(w), 0);
  const words = normalizeText(query.text).split(' ');
  const ruledOut = retriever.excluded(words);
  const results = retriever.index.search([...weights.keys()].join(' '), {
    boost: FIELD_BOOST,
    // Terms are already stems (and phrase pairs): search them as they are.
    tokenize: (t) => t.split(' '),
    processTerm: (t) => t,
    boostTerm: (term) => weights.get(term) ?? 1,
    // Only a word the knowledge does not write is matched by near spellings: a known word's are
    // other words, each scored for nothing. Prefix matching stays for every word: a stem reaching
    // the phrases it starts ("brown" to "brown_spot") is part of how entries rank.
    fuzzy: (term) => (term.length >= 6 && !term.includes('_') && !retriever.indexed.has(term) ? 0.15 : false),
    prefix: (term) => term.length >= 5 && !term.includes('_') && term !== CROP_TOKEN,
    weights: { fuzzy: 0.4, prefix: 0.3 },
    boostDocument: (id: string) => {
      const entry = retriever.byId.get(id);
      if (!entry) return 0;
      if (entry.subject === 'crop' && !query.crop) return 0;
      if (ruledOut.has(id)) return 0;
      let boost = 1;
      if (entry.regions.length > 0 && query.region) {
        boost *= entry.regions.includes(query.region) ? REGION_FIT : REGION_MISFIT;
      }
      if (entry.seasons.length > 0 && query.season) {
        boost *= entry.seasons.includes(query.season) ? SEASON_FIT : SEASON_MISFIT;
      }
      return boost;
    },
  });
  const stems = new Set(positional.concat(own));
  // cropWords: the words naming the crop, which CROP_TOKEN stands for in crop entries.
  // The plants the question names, else those the conversation named ("how deep can I bury them"
  // after a tomato question): an entry about other plants is less likely the one.
  // "it's 2 years old but no fruit" after a pineapple question: "fruit" names no plant, the
  // conversation's pineapple does.
  const generic = retriever.genericPlantStems;
  const contextNamed = context.filter((w) => retriever.allPlantStems.has(w));
  const fromContext =
    ownNamed.length === 0 ||
    (ownNamed.every((w) => generic.has(w)) && contextNamed.some((w) => !generic.has(w)));
  const named = new Set(
    fromContext ? contextNamed.filter((w) => ownNamed.length === 0 || !generic.has(w)) : ownNamed,
  );
  const plantStemsAsked =
    fromContext && ownNamed.length > 0 ? named : new Set([...stems, ...(fromContext ? named : [])]);
  // A crop entry is about the crop the question names, or the conversation's when it names none.
  const cropNamed = query.crop && marked !== query.text;
  const contextSet = new Set([...context, ...bigrams(context)]);
  const hits: Hit[] = [];
  // The most the scaling below can lift a score: results come best first, so once a result cannot
  // reach the last of the best `limit`, none after it can either.
  const maxLift = PLANT_FIT * (place.size > 0 ? PLACE_FIT : 1);
  let floor = 0;
  for (const r of results) {
    if (hits.length >= limit && r.score * maxLift < floor) break;
    const entry = retriever.byId.get(String(r.id));
    if (!entry || r.score <= 0) continue;
    const found = r.queryTerms.map((t) => origin.get(t) ?? t);
    const matched = [...new Set(found.filter((t) => ownSet.has(t)))];
    if (found.includes(CROP_TOKEN)) matched.push(...cropWords.filter((w) => !matched.includes(w)));
    // An entry that covers more of the question, whose name the question says and which is about
    // the plant it names, ranks higher.
    const covered = matched.reduce((sum, w) => sum + (ownSet.has(w) ? retriever.weightOf(w) : 0), 0);
    const coverage = total === 0 ? 0 : covered / total;
    const label = retriever.labelStems.get(entry.id) ?? [];
    const said = label.length === 0 ? 0 : label.filter((w) => stems.has(w)).length / label.length;
    const plants = retriever.plantStems.get(entry.id) ?? [];
    const fit =
      entry.subject === 'crop' && (cropNamed || (query.crop && fromContext))
        ? PLANT_FIT
        : plants.length === 0 || named.size === 0
          ? 1
          : plants.some((p) => plantStemsAsked.has(p))
            ? PLANT_FIT
            : PLANT_MISFIT;
    const score =
      r.score *
      (COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * coverage) *
      (LABEL_FLOOR + (1 - LABEL_FLOOR) * said) *
      fit *
      (place.size > 0 && entry.local ? PLACE_FIT : 1);
    // The fields each question word (or the synonym standing for it) was found in.
    const fields = new Map<string, string[]>();
    for (const [term, where] of Object.entries(r.match as Record<string, readonly string[]>)) {
      const w = origin.get(term) ?? term;
      fields.set(w, [...(fields.get(w) ?? []), ...where]);
    }
    const about = matched.filter((w) => (fields.get(w) ?? []).some((f) => f !== 'answer'));
    // Words of the conversation the entry matched, also those the question says again ("tomato").
    const carried = found.filter((t) => contextOnly.has(t) || (contextSet.has(t) && t !== CROP_TOKEN)).length;
    hits.push({ entry, score, coverage, own: matched, about, fit, carried });
    if (hits.length >= limit) {
      hits.sort((a, b) => b.score - a.score);
      hits.length = limit;
      floor = hits[limit - 1]?.score ?? 0;
    }
  }
  return hits.sort((a, b) => b.score - a.score).slice(0, limit);
}

let cached: Retriever | null = null;

/** The retriever over the shipped knowledge, built once. */
export function advisorRetriever(): Retriever {
  cached ??= buildRetriever(advisorKnowledge());
  return cached;
}

/** The stems of a place the question names ("chicago", "puerto rico"), which say where, not what. */
export function placeStems(
  question: string,
  knowledge: AdvisorKnowledge,
  known: readonly string[] = [],
): string[] {
  return placeNames(question, known).flatMap((n) => contentStems(n, knowledge));
}

/**
 * The places a question names: the one located, any state named ("new to santa fe from florida"),
 * and `known` places (the gardener's own town) where the question names them.
 */
function placeNames(question: string, known: readonly string[] = [], located?: LocationDetection): string[] {
  const found = located ?? detectLocation(question);
  const names = found.hasLocation
    ? [found.city, found.state ? stateName(found.state) : null, found.region, found.location]
    : [];
  const text = ` ${normalizeText(question)} `;
  const named = [...STATE_NAMES_LOWER, ...known.map(normalizeText)].filter((name) =>
    text.includes(` ${name} `),
  );
  return [...names, ...named].filter((n): n is string => !!n);
}
