import { advisorRetriever } from './advisor/retrieval/search';
import { preloadPlaceAreas } from './places/areas';
import { frostReferences } from './places/frost-shift';
import { preloadZoneTable } from './places/hardiness';
import { getCityIndex } from './places/zip';
import { preloadLanguageDetector } from './validation/language';

/** What `preloadGardeningData` found. */
export interface PreloadReport {
  zoneTable: boolean;
  languageDetector: boolean;
  /** Knowledge entries in the advisor's search index. */
  advisorEntries: number;
}

/**
 * Reads the advisor's knowledge and builds its search index (about 2 s on a loaded machine), so
 * the first question a service answers costs what the others do. Safe to call more than once.
 */
export function preloadAdvisor(): number {
  return advisorRetriever().knowledge.entries.length;
}

/**
 * Loads every lazy table now (ZIP data and city index, the hardiness zone table with its
 * nearest-ZIP index, the areas of Alaska, Hawaii and Puerto Rico, the frost
 * references, the language model, the
 * advisor's index), so a service's first message is answered as fast as the rest. Safe to call
 * more than once; nothing is loaded twice.
 */
export function preloadGardeningData(): PreloadReport {
  getCityIndex();
  preloadPlaceAreas();
  frostReferences();
  return {
    zoneTable: preloadZoneTable(),
    languageDetector: preloadLanguageDetector(),
    advisorEntries: preloadAdvisor(),
  };
}
