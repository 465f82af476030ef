import { preloadPlaceAreas } from './places/areas';
import { preloadZoneTable } from './places/hardiness';
import { getCityIndex } from './places/zip';
import { preloadLanguageDetector } from './validation/language';

/** What `preloadGardeningData` found. */
export interface PreloadReport {
  zoneTable: boolean;
  languageDetector: boolean;
}

/**
 * Loads every lazy table now (ZIP data and city index, the hardiness zone table with its
 * nearest-ZIP index, the areas of Alaska, Hawaii and Puerto Rico, the language model), so a
 * service's first message is answered as fast as the rest. Safe to call more than once; nothing is
 * loaded twice.
 */
export function preloadGardeningData(): PreloadReport {
  getCityIndex();
  preloadPlaceAreas();
  return { zoneTable: preloadZoneTable(), languageDetector: preloadLanguageDetector() };
}
