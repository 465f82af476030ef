import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { detectTopics } from '../analysis/topics';
import { ENGLISH_STOPWORDS } from '../text/english';
import { analysisWindow } from '../text/words';
import { isLatinPlantName } from './plant-names';

interface EldResult {
  language: string;
  getScores(): Record<string, number>;
  isReliable(): boolean;
}

interface EldDetector {
  detect(text: string): EldResult;
}

/** eld is ESM-only and exports only an `import` condition, so it is loaded by file path. */
const ELD_ENTRY = path.join('eld', 'src', 'entries', 'static.small.js');

let detector: EldDetector | null | undefined;

function loadDetector(): EldDetector | null {
  if (detector !== undefined) return detector;
  detector = null;
  const req = createRequire(__filename);
  for (const dir of req.resolve.paths('eld') ?? []) {
    const entry = path.join(dir, ELD_ENTRY);
    if (!fs.existsSync(entry)) continue;
    const loaded = req(entry) as { eld?: EldDetector; default?: EldDetector };
    detector = loaded.eld ?? loaded.default ?? null;
    break;
  }
  return detector;
}

/** Loads the language model now (about 70 MB of RSS, a few hundred ms) instead of on first use. */
export function preloadLanguageDetector(): boolean {
  return loadDetector() !== null;
}

/** Common English words beyond function words (symptoms, colours, garden talk, texting). */
const ENGLISH_CONTENT_WORDS = new Set(
  `leaves leaf plant plants planted planting garden gardens gardening yard grow grows growing grew grown
  yellow brown green black white red purple orange gray grey spots spot holes hole turning turned curling
  curled wilting wilted wilt dying dead died die dry wet hot cold warm sun shade soil dirt water watering
  watered rain bugs bug flowers flower bloom blooms blooming bush bushes tree trees fruit fruits veggies
  vegetables vegetable seeds seed seedlings sprouts pot pots bed beds lawn grass weeds weed help problem
  problems wrong happened happening okay fine small big tall short new old best good bad great nice
  thanks please question answer tell know think looks look looking keep keeps kept getting get got put
  crispy edges tips mushy soft hard sticky powder fuzzy stems stem roots root buds bud branches branch
  cut cutting prune pruning harvest pick picked ripe eat eating ate kill killed killing save fix stop
  spray sprayed sprays feed fertilize compost mulch indoor indoors outside outdoor window light bright
  direct morning afternoon evening season spring summer fall autumn winter frost freeze week month year
  again still already ever never always often sometimes every each much many few lot lots bit little
  inch inches feet foot deep wide high low why how what when where which who whose wtf omg ugh lol
  doing does did done make makes made take takes took come comes came go goes went run runs ran
  first last next time times day days tonight today yesterday tomorrow weekend moved move new home house`.split(
    /\s+/,
  ),
);

/** Function words of other languages that are not also English words. */
const FOREIGN_MARKERS = new Set(
  `el los las del que cuando como cómo mis tengo tiene por para con una está esta estan están pero muy
  hojas plantas plantar jardin jardín sembrar siembro mi qué hago necesito ayuda favor cuál cual
  les des du et je mon mes quand comment pour avec dans sur pas est sont mais très une dois
  der das und ich mein meine meinen wie wann soll nicht ist mit für auf ein eine habe oft
  não nao eu meu minha quando faço fazer uma também
  gli di che sono posso della il
  het een ik mijn vaak moet niet geven
  ang ng mga paano ko po
  jak się nie`.split(/\s+/),
);

/** What the language check concluded. */
export interface LanguageReading {
  /** ISO 639-1 code ("en", "es"...), or "" when undetermined. */
  language: string;
  english: boolean;
  /** 0-1 */
  confidence: number;
}

const NON_LATIN_LETTER =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Cyrillic}\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Thai}\p{Script=Devanagari}\p{Script=Greek}\p{Script=Bengali}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Gujarati}\p{Script=Gurmukhi}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Armenian}\p{Script=Georgian}\p{Script=Ethiopic}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Sinhala}]/gu;

function eldLanguage(text: string): { language: string; reliable: boolean; margin: number } | null {
  const eld = loadDetector();
  if (!eld) return null;
  const result = eld.detect(text);
  const scores = result.getScores();
  const top = scores[result.language] ?? 0;
  const english = scores.en ?? 0;
  return { language: result.language, reliable: result.isReliable(), margin: top - english };
}

/**
 * Whether a text message is in English, robust on short texts: English function words, garden
 * vocabulary, typos ("tomatos", "shud") and botanical Latin names ("Acer palmatum") all count for
 * English; other scripts and other languages' function words count against it; eld (small model)
 * decides the rest. Texts too short to tell are taken as English. Only the first
 * ANALYSIS_MAX_CHARS characters are read.
 */
export function readLanguage(text: string): LanguageReading {
  const cleaned = analysisWindow(text)
    .replace(/https?:\/\/\S+|www\.\S+/gi, ' ')
    .replace(/[\d_]+/g, ' ')
    .trim();
  const letters = cleaned.match(/\p{L}/gu)?.length ?? 0;
  if (letters < 2) return { language: '', english: true, confidence: 0.3 };
  const nonLatin = cleaned.match(NON_LATIN_LETTER)?.length ?? 0;
  if (nonLatin / letters >= 0.5) {
    const eld = eldLanguage(cleaned);
    return {
      language: eld?.language && eld.language !== 'en' ? eld.language : '',
      english: false,
      confidence: 0.95,
    };
  }
  const words = cleaned.toLowerCase().match(/[\p{L}]+(?:'[\p{L}]+)?/gu) ?? [];
  if (words.length === 0) return { language: '', english: true, confidence: 0.3 };
  let english = 0;
  let foreign = 0;
  let neutral = 0;
  for (const word of words) {
    if (FOREIGN_MARKERS.has(word)) foreign++;
    else if (ENGLISH_STOPWORDS.has(word) || ENGLISH_CONTENT_WORDS.has(word)) english++;
    else if (isLatinPlantName(word)) neutral++;
  }
  const counted = words.length - neutral;
  if (counted <= 0) return { language: 'en', english: true, confidence: 0.5 };
  if (foreign >= 2 && foreign > english)
    return { language: eldLanguage(cleaned)?.language ?? '', english: false, confidence: 0.9 };
  if (english / counted >= 0.4)
    return { language: 'en', english: true, confidence: Math.min(0.99, 0.6 + english / counted / 2) };
  // Ambiguous: count garden words too (plant names, "aphids", "mulch"...), then ask eld.
  const gardenWords = words.filter(
    (w) => !ENGLISH_STOPWORDS.has(w) && !FOREIGN_MARKERS.has(w) && detectTopics(w).length > 0,
  ).length;
  const englishLike = english + gardenWords;
  if (englishLike / counted >= 0.5 && foreign === 0)
    return { language: 'en', english: true, confidence: 0.7 };
  const eld = eldLanguage(cleaned);
  if (!eld) return { language: '', english: foreign === 0, confidence: 0.4 };
  const diacritics = /[áéíóúñ¿¡àèìòùâêîôûçäöüßãõłśćżźąęœø]/i.test(cleaned);
  const enoughWords = counted >= 2;
  if (
    eld.language !== 'en' &&
    eld.language !== '' &&
    enoughWords &&
    (eld.reliable || foreign >= 1 || diacritics) &&
    (eld.margin >= 0.02 || foreign >= 1 || diacritics) &&
    english <= 1
  ) {
    return { language: eld.language, english: false, confidence: foreign >= 1 || diacritics ? 0.85 : 0.7 };
  }
  return { language: 'en', english: true, confidence: 0.55 };
}
