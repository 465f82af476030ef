import * as fs from 'node:fs';
import * as path from 'node:path';
import type { z } from 'zod';
import { checkPlaceholders } from './placeholders';
import {
  type Condition,
  type CropData,
  CropFileSchema,
  LanguageFileSchema,
  type Part,
  PlantFileSchema,
  RegionalFileSchema,
  SynonymFileSchema,
  TopicFileSchema,
  VocabularyFileSchema,
} from './schema';
import { compileTerms, expandTerms, termSource } from './terms';
import type { AdvisorKnowledge, CompiledCondition, CompiledPart, Crop, Entry, Plant } from './types';

/**
 * The advisor's data folder: `../../../data/advisor` from both src/advisor/knowledge (Jest, ts)
 * and dist/advisor/knowledge (built services), so no copy step is needed.
 */
export const ADVISOR_DATA_DIR = path.join(__dirname, '..', '..', '..', 'data', 'advisor');

export type { AdvisorKnowledge, CompiledCondition, CompiledPart, Crop, Entry, Plant } from './types';

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
  const readFile = <T>(schema: z.ZodType<T>, name: string): T | null => {
    files++;
    return parse(schema, readJson(path.join(dir, name), problems), name, problems);
  };
  const vocabFile = readFile(VocabularyFileSchema, 'vocabulary.json');
  const cropFile = readFile(CropFileSchema, 'crops.json');
  const plantFile = readFile(PlantFileSchema, 'plants.json');
  const languageFile = readFile(LanguageFileSchema, 'language.json');
  const synonymFile = readFile(SynonymFileSchema, 'synonyms.json');
  const regionalFile = readFile(RegionalFileSchema, 'regional.json');

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
  const expand = (terms: readonly string[], where: string, keepCrop = false): string[] => {
    try {
      return terms.flatMap((t) => (keepCrop && t === '@crop' ? [t] : expandTerms([t], vocabulary)));
    } catch (error) {
      problems.push(`${where}: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    }
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
  const regionalLists = new Set(Object.keys(regionalFile?.lists ?? {}));

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
      if (!entry.keywords && entry.id !== 'general') problems.push(`${where}: keywords are required`);
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
          for (const problem of checkPlaceholders(o.text, tags, regionalLists))
            problems.push(`${at}: ${problem}`);
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
        label: entry.label ?? entry.id.replace(/-/g, ' '),
        examples: entry.examples,
        keywords: expand(entry.keywords ?? [], `${where}: keywords`, true),
        symptoms: entry.symptoms ?? [],
        plants: entry.plants ?? [],
        regions: entry.regions ?? [],
        seasons: entry.seasons ?? [],
        exclude: expand(entry.exclude ?? [], `${where}: exclude`),
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
  const pestTerms = ['pest-name', 'animal'].filter((g) => vocabulary.has(g)).map((g) => `@${g}`);
  return {
    entries,
    byId: new Map(entries.map((e) => [e.id, e])),
    pestPattern: compileTerms(pestTerms.length > 0 ? pestTerms : ['re:(?!)'], vocabulary),
    crops,
    plants,
    subjectPattern: new RegExp(`(?<![a-z0-9])(?:${subjectTerms.join('|')})(?![a-z0-9])`, 'g'),
    language: {
      shorthand: new Map(Object.entries(languageFile?.shorthand ?? {})),
      irregular: new Map(Object.entries(languageFile?.irregular ?? {})),
      stopwords: new Set(languageFile?.stopwords ?? []),
      units: new Set(languageFile?.units ?? []),
      readings: languageFile?.readings ?? [],
    },
    synonyms: synonymFile?.groups ?? [],
    regional: new Map(Object.entries(regionalFile?.lists ?? {})),
    files,
  };
}

let cached: AdvisorKnowledge | null = null;

/** The shipped knowledge, read and validated once. */
export function advisorKnowledge(): AdvisorKnowledge {
  cached ??= readAdvisorKnowledge();
  return cached;
}
