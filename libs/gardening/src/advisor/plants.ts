import { advisorKnowledge, type Plant } from './knowledge/load';
import { isHardyIn } from './knowledge/placeholders';
import { normalizeText } from './knowledge/terms';

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
