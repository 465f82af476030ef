import type { Topic } from '../../analysis/topics';
import type {
  AdvisorRegion,
  Condition,
  CropData,
  KnowledgeEntry,
  PlantData,
  RegionalOptionData,
} from './schema';

/**
 * The shapes of the advisor's compiled knowledge, in a module of their own that imports no code,
 * so the loader, the placeholders and the answer context can all name them without importing
 * each other.
 */

/** Week offsets [from, to]; negative is before the reference frost date. */
export type WeekRange = readonly [number, number];

export interface CompiledCondition extends Omit<Condition, 'asked' | 'notAsked'> {
  asked?: RegExp;
  notAsked?: RegExp;
}
interface CompiledOption {
  text: string;
  when: CompiledCondition | null;
}
/** A part of an answer: the first option that applies (a plain part has one option). */
export type CompiledPart = readonly CompiledOption[];

/** A knowledge entry ready to score and render. */
export interface Entry {
  id: string;
  topic: Topic | 'general' | 'crop';
  subject: 'crop' | null;
  /** A short name for clarifying questions. */
  label: string;
  examples: readonly string[];
  /** Keywords with vocabulary groups expanded ("@crop" stays: a crop named in the question). */
  keywords: readonly string[];
  symptoms: readonly string[];
  plants: readonly string[];
  regions: readonly AdvisorRegion[];
  seasons: readonly string[];
  /** Terms that rule the entry out (vocabulary groups expanded). */
  exclude: readonly string[];
  answer: readonly CompiledPart[] | null;
  compute: KnowledgeEntry['compute'] | null;
  local: boolean;
  about: readonly string[];
  /** The data file it came from, e.g. "pests.json". */
  file: string;
}

/** A crop with its name pattern (over normalised text). */
export interface Crop extends CropData {
  pattern: RegExp;
}

/** A plant with its name pattern (over normalised text). */
export interface Plant extends PlantData {
  pattern: RegExp;
}

/** How gardeners write (language.json), for the question reader. */
interface Language {
  shorthand: ReadonlyMap<string, string>;
  irregular: ReadonlyMap<string, string>;
  stopwords: ReadonlySet<string>;
  /** Words before which a number stays a number ("2 years" is not "to years"). */
  units: ReadonlySet<string>;
  /** What a number after a word means ("ph 5.2" is acidic). */
  readings: ReadonlyArray<{ after: string; below?: number; above?: number; means: string }>;
}

export interface AdvisorKnowledge {
  entries: readonly Entry[];
  /** Entries by id (the general answer is "general"). */
  byId: ReadonlyMap<string, Entry>;
  crops: readonly Crop[];
  plants: readonly Plant[];
  /** Every crop, plant and "@subject" term: what a question is about. */
  subjectPattern: RegExp;
  /** The pests and animals among the subjects ("@pest-name", "@animal"). */
  pestPattern: RegExp;
  language: Language;
  /** Groups of words that mean the same (synonyms.json). */
  synonyms: ReadonlyArray<readonly string[]>;
  /** Lists by region and zone (regional.json). */
  regional: ReadonlyMap<string, readonly RegionalOptionData[]>;
  /** How many data files were read. */
  files: number;
}
