import { z } from 'zod';
import { TOPICS } from '../../analysis/topics';

/** The broad regions answers can vary by (regionForState's names). */
export const ADVISOR_REGIONS = [
  'Pacific Northwest',
  'California',
  'Southwest',
  'Mountain West',
  'South Central',
  'Midwest',
  'Northeast',
  'Mid-Atlantic',
  'Southeast',
  'Alaska',
  'Hawaii',
  'Caribbean',
  'Pacific Islands',
] as const;
export type AdvisorRegion = (typeof ADVISOR_REGIONS)[number];

const Region = z.enum(ADVISOR_REGIONS);
const Season = z.enum(['winter', 'spring', 'summer', 'fall']);
const Level = z.enum(['beginner', 'intermediate', 'advanced']);
const Soil = z.enum(['clay', 'clay loam', 'loam', 'sandy loam', 'sandy', 'silt', 'peat', 'chalk', 'rocky']);
const Known = z.enum(['zone', 'place', 'region', 'soil', 'level', 'crop']);
const Zone = z.number().int().min(1).max(13);
const Term = z.string().min(1);
const Text = z
  .string()
  .min(1)
  // Curly quotes, dashes and emoji would force UCS-2 segments; placeholders use plain braces.
  .regex(/^[\x20-\x7e]*$/, 'plain ASCII only (no curly quotes, long dashes or emoji)');

/** When a part of an answer applies; every field given must hold. */
const ConditionSchema = z
  .object({
    season: z.array(Season).min(1).optional(),
    zoneMin: Zone.optional(),
    zoneMax: Zone.optional(),
    frostFree: z.boolean().optional(),
    /** The named crop lives through winter in the zone (annual crops always do; unknown zone never). */
    cropHardy: z.boolean().optional(),
    region: z.array(Region).min(1).optional(),
    notRegion: z.array(Region).min(1).optional(),
    level: z.array(Level).min(1).optional(),
    soil: z.array(Soil).min(1).optional(),
    known: z.array(Known).min(1).optional(),
    unknown: z.array(Known).min(1).optional(),
    asked: z.array(Term).min(1).optional(),
    notAsked: z.array(Term).min(1).optional(),
  })
  .strict();
export type Condition = z.infer<typeof ConditionSchema>;

const Option = z.object({ text: Text, when: ConditionSchema.optional() }).strict();
/** One sentence (or a few) of an answer: always, under a condition, or the first option that applies. */
const PartSchema = z.union([Text, Option, z.object({ oneOf: z.array(Option).min(2) }).strict()]);
export type Part = z.infer<typeof PartSchema>;

/** Answers computed in code from the crop and frost tables. */
const COMPUTED_ANSWERS = ['crop-timing', 'crop-indoor', 'crop-grow', 'what-to-plant'] as const;

const EntrySchema = z
  .object({
    id: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lower-case words joined by hyphens'),
    /** The topic answered; "crop" means the named crop's own topic. Default: the file's topic. */
    topic: z.enum([...TOPICS, 'general', 'crop']).optional(),
    /** "crop": the entry answers about a crop named in the question (crops.json), and only then. */
    subject: z.literal('crop').optional(),
    /** A short name for clarifying questions ("mealybugs", "pruning roses"); default: the id's words. */
    label: Text.optional(),
    /** Questions as gardeners ask them; the advisor test asks each one, word for word. */
    examples: z.array(z.string().min(3)).min(1),
    /** Words and phrases the entry is about (names, nicknames, the words people use for it). */
    keywords: z.array(Term).min(1).optional(),
    /** What the gardener sees, in plain words ("white cottony clumps on stems"). */
    symptoms: z.array(z.string().min(3)).optional(),
    /** The plants the entry is about. */
    plants: z.array(z.string().min(2)).optional(),
    /** The regions the entry fits (it ranks higher for gardeners there). */
    regions: z.array(Region).min(1).optional(),
    /** The seasons the entry fits (it ranks higher then). */
    seasons: z.array(Season).min(1).optional(),
    /** Terms that rule the entry out. */
    exclude: z.array(Term).optional(),
    /** The answer, part by part: parts are added in order while the SMS fits two segments. */
    answer: z.array(PartSchema).min(1).optional(),
    compute: z.enum(COMPUTED_ANSWERS).optional(),
    /** Depends on where the gardener is: without a zone, the answer asks for a ZIP once. */
    local: z.boolean().optional(),
    /** Plants the entry talks about whatever the zone (a warning), exempt from the hardiness check. */
    about: z.array(z.string()).optional(),
  })
  .strict()
  .refine((e) => (e.answer === undefined) !== (e.compute === undefined), {
    message: 'an entry has either an answer or a compute, not both',
  });
export type KnowledgeEntry = z.infer<typeof EntrySchema>;

/** One data file of knowledge: a topic and its entries. */
export const TopicFileSchema = z
  .object({
    topic: z.enum([...TOPICS, 'general']),
    description: z.string().optional(),
    /** Order among files when two entries score the same (lower first); default 100. */
    priority: z.number().int().optional(),
    entries: z.array(EntrySchema).min(1),
  })
  .strict();

const Weeks = z.tuple([z.number().int(), z.number().int()]).refine(([a, b]) => a <= b, 'from <= to');

/** A crop the advisor can time from frost dates. */
const CropSchema = z
  .object({
    name: Text,
    singular: Text,
    topic: z.enum(TOPICS),
    /** Every way people write it (terms). */
    names: z.array(Term).min(1),
    /** Terms that, right before a name, mean something else ("sweet" before "peas"). */
    notAfter: z.array(z.string()).optional(),
    /** Terms that, right after a name, mean something else ("gluten" after "corn"). */
    notBefore: z.array(z.string()).optional(),
    warm: z.boolean(),
    method: z.enum([
      'transplants',
      'seed',
      'sets',
      'seed potatoes',
      'slips',
      'crowns',
      'cloves',
      'bulbs',
      'plants',
    ]),
    indoor: Weeks.optional(),
    spring: Weeks.optional(),
    fall: Weeks.optional(),
    maturity: Weeks,
    /** Harvest in weeks from the last spring frost, for crops that overwinter (garlic). */
    harvestWeeks: Weeks.optional(),
    condition: Text,
    tip: Text,
    warmZones: Text,
    /**
     * The zone from which `warmZones` replaces the frost-date window (default 10): garlic goes in
     * by the calendar where the ground never freezes (8+), tulips need chilling from 9.
     */
    warmFrom: Zone.optional(),
    /**
     * Regions where `warmFrom` applies; elsewhere zone 10. Strawberries are planted in fall where
     * summers are hot (the South, warm California), not in the mild maritime Northwest of the same zone.
     */
    warmFromRegions: z.array(Region).min(1).optional(),
    harvest: Text.optional(),
    spacing: Text.optional(),
    water: Text.optional(),
    container: Text.optional(),
    feed: Text.optional(),
    pests: Text.optional(),
    /** Perennial crops: the zones where they come back. */
    zones: z.tuple([Zone, Zone]).optional(),
  })
  .strict();
export type CropData = z.infer<typeof CropSchema>;

export const CropFileSchema = z
  .object({ description: z.string().optional(), crops: z.array(CropSchema).min(1) })
  .strict();

/** A plant answers can recommend, with the zones where it is hardy. */
const PlantSchema = z
  .object({
    name: Text,
    /** Other names it is written as (for the hardiness check and questions). */
    aliases: z.array(Text).optional(),
    kind: z.enum([
      'perennial',
      'shrub',
      'tree',
      'fruit tree',
      'berry',
      'herb',
      'grass',
      'ground cover',
      'vine',
      'bulb',
      'vegetable',
      'annual',
      'houseplant',
    ]),
    /** USDA zones where it survives winter outdoors; annuals and houseplants have none. */
    zones: z.tuple([Zone, Zone]).optional(),
    tags: z.array(z.string().regex(/^[a-z0-9-]+$/)).min(1),
    /** Regions where it is native. */
    native: z.array(Region).optional(),
  })
  .strict()
  .refine((p) => p.kind === 'annual' || p.kind === 'houseplant' || p.zones !== undefined, {
    message: 'a plant that lives outdoors year-round needs zones',
  });
export type PlantData = z.infer<typeof PlantSchema>;

export const PlantFileSchema = z
  .object({ description: z.string().optional(), plants: z.array(PlantSchema).min(1) })
  .strict();

/** Named term groups that keywords refer to as "@name". */
export const VocabularyFileSchema = z
  .object({
    description: z.string().optional(),
    groups: z.record(z.string().regex(/^[a-z0-9-]+$/), z.array(Term).min(1)),
  })
  .strict();

/** How gardeners write: shorthand and misspellings, irregular forms, ignored words. */
export const LanguageFileSchema = z
  .object({
    description: z.string().optional(),
    shorthand: z.record(z.string().min(1), z.string().min(1)),
    irregular: z.record(z.string().regex(/^[a-z]+$/), z.string().regex(/^[a-z]+$/)),
    stopwords: z.array(z.string().regex(/^[a-z0-9]+$/)),
    /** Words before which a number keeps its value instead of its texting meaning ("2 years"). */
    units: z.array(z.string().regex(/^[a-z]+$/)).optional(),
    /** What a number after a word means ("ph 5.2" is acidic): its words are added after it. */
    readings: z
      .array(
        z
          .object({
            after: z.string().regex(/^[a-z]+$/),
            below: z.number().optional(),
            above: z.number().optional(),
            means: z.string().min(1),
          })
          .strict(),
      )
      .optional(),
  })
  .strict();

/** Words that mean the same to a gardener; a question with one also looks for the others. */
export const SynonymFileSchema = z
  .object({
    description: z.string().optional(),
    groups: z.array(z.array(z.string().min(1)).min(2)),
  })
  .strict();

/** One choice of a regional list: the regions and zones it is for, and the list itself. */
const RegionalOption = z
  .object({
    region: z.array(Region).min(1).optional(),
    zoneMin: Zone.optional(),
    zoneMax: Zone.optional(),
    text: Text,
  })
  .strict();

/** Lists that depend on where the gardener is ({regional:name}): the first option that fits. */
export const RegionalFileSchema = z
  .object({
    description: z.string().optional(),
    lists: z.record(z.string().regex(/^[a-z0-9-]+$/), z.array(RegionalOption).min(1)),
  })
  .strict();
export type RegionalOptionData = z.infer<typeof RegionalOption>;
