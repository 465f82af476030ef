import type { AdviceContext } from '../context';
import type { AdvisorKnowledge, CompiledCondition, CompiledPart, Crop } from './load';
import { fillPlaceholders } from './placeholders';

/** Two GSM-7 segments of a concatenated SMS (153 septets each). */
export const TWO_SEGMENTS = 306;
/** Three segments: the longest an answer may run when its first part alone needs it. */
export const THREE_SEGMENTS = 459;

/** Whether a part's condition holds for this gardener and question. */
function conditionHolds(when: CompiledCondition | null, ctx: AdviceContext, crop: Crop | null): boolean {
  if (!when) return true;
  const zone = ctx.zoneNumber;
  if (when.season && !when.season.includes(ctx.season)) return false;
  if (when.zoneMin !== undefined && (zone === null || zone < when.zoneMin)) return false;
  if (when.zoneMax !== undefined && (zone === null || zone > when.zoneMax)) return false;
  if (when.frostFree !== undefined && (zone === null || ctx.frostFree !== when.frostFree)) return false;
  if (when.cropHardy !== undefined) {
    if (zone === null || !crop) return false;
    const hardy = !crop.zones || (crop.zones[0] <= zone && zone <= crop.zones[1]);
    if (hardy !== when.cropHardy) return false;
  }
  if (when.region && (ctx.regionName === null || !when.region.includes(ctx.regionName))) return false;
  if (when.notRegion && ctx.regionName !== null && when.notRegion.includes(ctx.regionName)) return false;
  if (when.level && (ctx.level === null || !when.level.includes(ctx.level))) return false;
  if (when.soil && (ctx.soil === null || !when.soil.includes(ctx.soil))) return false;
  const known = {
    zone: ctx.zone !== null,
    place: ctx.place !== null,
    region: ctx.regionName !== null,
    soil: ctx.soil !== null,
    level: ctx.level !== null,
    crop: crop !== null,
  };
  if (when.known?.some((k) => !known[k])) return false;
  if (when.unknown?.some((k) => known[k])) return false;
  if (when.asked && !when.asked.test(ctx.question)) return false;
  if (when.notAsked?.test(ctx.question)) return false;
  return true;
}

/** Appends sentences in order while the whole stays within `max` characters; the first always goes in. */
export function composeParts(parts: readonly string[], max: number = TWO_SEGMENTS): string {
  let out = '';
  for (const part of parts) {
    const next = out === '' ? part : `${out} ${part}`;
    if (out === '' || next.length <= max) out = next;
  }
  return out;
}

/** The sentences of an answer that apply, filled in, in order. */
export function renderParts(
  parts: readonly CompiledPart[],
  ctx: AdviceContext,
  crop: Crop | null,
  knowledge: Pick<AdvisorKnowledge, 'plants' | 'regional'>,
): string[] {
  const out: string[] = [];
  for (const options of parts) {
    for (const option of options) {
      if (!conditionHolds(option.when, ctx, crop)) continue;
      const text = fillPlaceholders(option.text, {
        ctx,
        crop,
        plants: knowledge.plants,
        regional: knowledge.regional,
      });
      if (text === null) continue;
      out.push(text);
      break;
    }
  }
  return out;
}
