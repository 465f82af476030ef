import * as fs from 'node:fs';
import * as path from 'node:path';
import type { z } from 'zod';
import type { Topic } from '../../analysis/topics';
import { checkPlaceholders } from './placeholders';
import {
  type Condition,
  type CropData,
  CropFileSchema,
  type KnowledgeEntry,
  type Part,
  type PlantData,
  PlantFileSchema,
  TopicFileSchema,
  VocabularyFileSchema,
} from './schema';
import { compileTerms, expandTerms, termPrefilter, termSource, type TermPrefilter } from './terms';

/**
 * The advisor's data folder: `../../../data/advisor` from both src/advisor/knowledge (Jest, ts)
 * and dist/advisor/knowledge (built services), so no copy step is needed.
 */
export const ADVISOR_DATA_DIR = path.join(__dirname, '..', '..', '..', 'data', 'advisor');

export interface CompiledCondition extends Omit<Condition, 'asked' | 'notAsked'> {
  asked?: RegExp;
  notAsked?: RegExp;
}
export interface CompiledOption {
  text: string;
  when: CompiledCondition | null;
}
/** A part of an answer: the first option that applies (a plain part has one option). */
export type CompiledPart = readonly CompiledOption[];

export interface CompiledGroup {
  /** Position in AdvisorKnowledge.groupIndex. */
  id: number;
  pattern: RegExp;
  /** The words its terms can start with: the pattern only runs when the question has one. */
  filter: TermPrefilter;
  weight: number;
  required: boolean;
}

/** A knowledge entry ready to score and render. */
export interface Entry {
  id: string;
  topic: Topic | 'general' | 'crop';
  subject: 'crop' | null;
  examples: readonly string[];
  groups: readonly CompiledGroup[];
  exclude: CompiledGroup | null;
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

/** Which groups a question's words can start a term of (see groupsToTest). */
export interface GroupIndex {
  size: number;
  exact: ReadonlyMap<string, readonly number[]>;
  prefix: ReadonlyMap<string, readonly number[]>;
  always: readonly number[];
}

export interface AdvisorKnowledge {
  entries: readonly Entry[];
  groupIndex: GroupIndex;
  /** Entries by id (the general answer is "general"). */
  byId: ReadonlyMap<string, Entry>;
  crops: readonly Crop[];
  plants: readonly Plant[];
  /** Every crop, plant and "@subject" term: what a question is about. */
  subjectPattern: RegExp;
  /** The pests and animals among the subjects ("@pest-name", "@animal"). */
  pestPattern: RegExp;
  /** How many data files were read. */
  files: number;
}

/** Why a data file is not valid: the file, the place in it and the problem. */
export class AdvisorDataError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid advisor data:\n  ${problems.join('\n  ')}`);
    this.name = 'AdvisorDataError';
  }
}

function readJson(file: string, problems: string[]): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
  } catch (error) {
    problems.push(`${path.basename(file)}: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}

function parse<T>(
  schema: z.ZodType<T>,
  value: unknown,
  file: string,
  problems: string[],
  idAt?: (p: readonly PropertyKey[]) => string | null,
): T | null {
  if (value === null) return null;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    const id = idAt?.(issue.path);
    // Inside an entry, the place is given from the entry ("answer.0"), not the file ("entries.3.answer.0").
    const where = (id ? issue.path.slice(2) : issue.path).map(String).join('.');
    problems.push(`${file}: ${id ? `entry "${id}": ` : ''}${where || '(file)'}: ${issue.message}`);
  }
  return null;
}

/** Words used as a name right before or after another word that makes it something else. */
function cropPattern(crop: CropData, vocabulary: ReadonlyMap<string, readonly string[]>): RegExp {
  const base = compileTerms(crop.names, vocabulary).source;
  const notAfter = crop.notAfter?.length
    ? `(?<!(?:${crop.notAfter.map((t) => termSource(t)).join('|')}) )`
    : '';
  const notBefore = crop.notBefore?.length
    ? `(?! (?:${crop.notBefore.map((t) => termSource(t)).join('|')})(?![a-z0-9]))`
    : '';
  return new RegExp(`${notAfter}${base}${notBefore}`);
}

/** Reads, validates and compiles every file of a data folder. Throws AdvisorDataError listing every problem. */
export function readAdvisorKnowledge(dir: string = ADVISOR_DATA_DIR): AdvisorKnowledge {
  const problems: string[] = [];
  let files = 0;
  const vocabFile = parse(
    VocabularyFileSchema,
    readJson(path.join(dir, 'vocabulary.json'), problems),
    'vocabulary.json',
    problems,
  );
  const cropFile = parse(
    CropFileSchema,
    readJson(path.join(dir, 'crops.json'), problems),
    'crops.json',
    problems,
  );
  const plantFile = parse(
    PlantFileSchema,
    readJson(path.join(dir, 'plants.json'), problems),
    'plants.json',
    problems,
  );
  files += 3;

  const vocabulary = new Map<string, readonly string[]>(Object.entries(vocabFile?.groups ?? {}));
  // "@crop" is every name of every crop.
  vocabulary.set(
    'crop',
    (cropFile?.crops ?? []).flatMap((c) => c.names),
  );
  const compile = (terms: readonly string[], where: string): RegExp | null => {
    try {
      return compileTerms(terms, vocabulary);
    } catch (error) {
      problems.push(`${where}: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
  };
  const allGroups: CompiledGroup[] = [];
  const compileGroup = (
    terms: readonly string[],
    weight: number,
    required: boolean,
    where: string,
  ): CompiledGroup | null => {
    const pattern = compile(terms, where);
    if (!pattern) return null;
    const group = {
      id: allGroups.length,
      pattern,
      filter: termPrefilter(expandTerms(terms, vocabulary)),
      weight,
      required,
    };
    allGroups.push(group);
    return group;
  };
  for (const [name, terms] of vocabulary) compile(terms, `vocabulary.json: group "${name}"`);

  const crops: Crop[] = [];
  for (const crop of cropFile?.crops ?? []) {
    try {
      crops.push({ ...crop, pattern: cropPattern(crop, vocabulary) });
    } catch (error) {
      problems.push(
        `crops.json: crop "${crop.name}": ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    for (const field of ['tip', 'harvest', 'spacing', 'water', 'container', 'feed', 'pests'] as const) {
      const text = crop[field];
      if (text && /[{}]/.test(text)) problems.push(`crops.json: crop "${crop.name}": ${field} has braces`);
    }
  }
  const plants: Plant[] = [];
  const plantNames = new Set<string>();
  for (const plant of plantFile?.plants ?? []) {
    if (plantNames.has(plant.name)) problems.push(`plants.json: "${plant.name}" is listed twice`);
    plantNames.add(plant.name);
    const pattern = compile([plant.name, ...(plant.aliases ?? [])], `plants.json: "${plant.name}"`);
    if (pattern) plants.push({ ...plant, pattern });
  }
  const tags = new Set(plants.flatMap((p) => p.tags));

  const topicDir = path.join(dir, 'topics');
  const topicFiles = fs.existsSync(topicDir)
    ? fs
        .readdirSync(topicDir)
        .filter((f) => f.endsWith('.json'))
        .sort()
    : [];
  if (topicFiles.length === 0) problems.push(`topics/: no topic files in ${topicDir}`);
  const loaded: Array<{ file: string; priority: number; entries: Entry[] }> = [];
  const ids = new Map<string, string>();
  for (const file of topicFiles) {
    files++;
    const raw = readJson(path.join(topicDir, file), problems);
    const idAt = (p: readonly PropertyKey[]): string | null => {
      if (p[0] !== 'entries' || typeof p[1] !== 'number') return null;
      const entries = (raw as { entries?: Array<{ id?: unknown }> } | null)?.entries;
      const id = entries?.[p[1]]?.id;
      return typeof id === 'string' ? id : null;
    };
    const data = parse(TopicFileSchema, raw, file, problems, idAt);
    if (!data) continue;
    const entries: Entry[] = [];
    for (const entry of data.entries) {
      const where = `${file}: entry "${entry.id}"`;
      const seen = ids.get(entry.id);
      if (seen) problems.push(`${where}: id already used in ${seen}`);
      ids.set(entry.id, file);
      if (!entry.match && entry.id !== 'general') problems.push(`${where}: match is required`);
      const groups: CompiledGroup[] = [];
      for (const [i, group] of (entry.match ?? []).entries()) {
        const compiled = compileGroup(
          group.terms,
          group.weight,
          group.required ?? false,
          `${where}: match ${i + 1}`,
        );
        if (compiled) groups.push(compiled);
      }
      const compileCondition = (when: Condition | undefined, at: string): CompiledCondition | null => {
        if (!when) return null;
        const { asked, notAsked, ...rest } = when;
        const out: CompiledCondition = { ...rest };
        if (asked) out.asked = compile(asked, `${at}: asked`) ?? undefined;
        if (notAsked) out.notAsked = compile(notAsked, `${at}: notAsked`) ?? undefined;
        return out;
      };
      const compilePart = (part: Part, i: number): CompiledPart => {
        const at = `${where}: answer ${i + 1}`;
        const options = typeof part === 'string' ? [{ text: part }] : 'oneOf' in part ? part.oneOf : [part];
        return options.map((o) => {
          for (const problem of checkPlaceholders(o.text, tags)) problems.push(`${at}: ${problem}`);
          return { text: o.text, when: compileCondition('when' in o ? o.when : undefined, at) };
        });
      };
      const topic = entry.topic ?? data.topic;
      if (topic === 'crop' && entry.subject !== 'crop')
        problems.push(`${where}: topic "crop" needs subject "crop"`);
      if (entry.subject !== 'crop' && entry.answer?.some((p) => JSON.stringify(p).includes('{crop.'))) {
        problems.push(`${where}: {crop.*} placeholders need subject "crop"`);
      }
      entries.push({
        id: entry.id,
        topic,
        subject: entry.subject ?? null,
        examples: entry.examples,
        groups,
        exclude: entry.exclude ? compileGroup(entry.exclude, 0, false, `${where}: exclude`) : null,
        answer: entry.answer ? entry.answer.map(compilePart) : null,
        compute: entry.compute ?? null,
        local: entry.local ?? false,
        about: entry.about ?? [],
        file,
      });
    }
    loaded.push({ file, priority: data.priority ?? 100, entries });
  }
  if (!ids.has('general')) problems.push('topics/: no entry "general" (the answer when nothing matches)');
  if (problems.length > 0) throw new AdvisorDataError(problems);

  loaded.sort((a, b) => a.priority - b.priority || a.file.localeCompare(b.file));
  const entries = loaded.flatMap((f) => f.entries);
  const subjectTerms = [
    ...crops.flatMap((c) => c.names),
    ...plants.flatMap((p) => [p.name, ...(p.aliases ?? [])]),
    ...expandTerms(vocabulary.get('subject') ?? [], vocabulary),
  ]
    .map((t) => termSource(t))
    .sort((a, b) => b.length - a.length);
  const exact = new Map<string, number[]>();
  const prefix = new Map<string, number[]>();
  const always: number[] = [];
  const add = (map: Map<string, number[]>, key: string, id: number): void => {
    const list = map.get(key) ?? [];
    if (list[list.length - 1] !== id) list.push(id);
    map.set(key, list);
  };
  for (const group of allGroups) {
    if (group.filter.always) always.push(group.id);
    for (const word of group.filter.words) add(exact, word, group.id);
    for (const start of group.filter.prefixes) add(prefix, start, group.id);
  }
  const pestTerms = ['pest-name', 'animal'].filter((g) => vocabulary.has(g)).map((g) => `@${g}`);
  return {
    entries,
    groupIndex: { size: allGroups.length, exact, prefix, always },
    byId: new Map(entries.map((e) => [e.id, e])),
    pestPattern: compileTerms(pestTerms.length > 0 ? pestTerms : ['re:(?!)'], vocabulary),
    crops,
    plants,
    subjectPattern: new RegExp(`(?<![a-z0-9])(?:${subjectTerms.join('|')})(?![a-z0-9])`, 'g'),
    files,
  };
}

/** Marks the groups whose pattern is worth running on a question (its words can start a term). */
export function groupsToTest(index: GroupIndex, words: readonly string[]): Uint8Array {
  const marks = new Uint8Array(index.size);
  for (const id of index.always) marks[id] = 1;
  for (const word of words) {
    for (const id of index.exact.get(word) ?? []) marks[id] = 1;
    for (let length = 1; length <= word.length; length++) {
      for (const id of index.prefix.get(word.slice(0, length)) ?? []) marks[id] = 1;
    }
  }
  return marks;
}

let cached: AdvisorKnowledge | null = null;

/** The shipped knowledge, read and validated once. */
export function advisorKnowledge(): AdvisorKnowledge {
  cached ??= readAdvisorKnowledge();
  return cached;
}
