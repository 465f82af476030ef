import { advisorKnowledge } from './knowledge/load';
import { normalizeText } from './knowledge/terms';
import type { Crop } from './knowledge/types';

/** Planting timing for one crop, relative to the average frost dates (data/advisor/crops.json). */
export type CropTiming = Crop;

/** Crops the advisor can time, with common spellings and nicknames (read and validated once). */
export const CROPS: readonly CropTiming[] = advisorKnowledge().crops;

/** The crop a question is about (the first one named), or null. */
export function findCrop(text: string): CropTiming | null {
  return findCropIn(normalizeText(text));
}

/** findCrop over text already normalised (normalizeText). */
export function findCropIn(normalized: string): CropTiming | null {
  return findCropsIn(normalized)[0] ?? null;
}

/** Every crop named in text already normalised, in the order the text names them. */
export function findCropsIn(normalized: string): CropTiming[] {
  const found: Array<{ crop: CropTiming; at: number }> = [];
  for (const crop of CROPS) {
    const match = crop.pattern.exec(normalized);
    if (match) found.push({ crop, at: match.index });
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.crop);
}
