import type { LocationTestResult } from '@sprout/contracts';
import { hardinessZoneForZip } from '../places/hardiness';
import { NAMED_REGIONS, type NamedRegion } from '../places/regions';
import { STATE_NAMES_LOWER, US_STATES, normalizeState, stateName } from '../places/states';
import { cityDisplayName, getCityIndex, lookupZip, normalizeCityName, zipForCityState } from '../places/zip';
import { ENGLISH_STOPWORDS } from '../text/english';
import { analysisWindow, editDistance, normalizeText } from '../text/words';
import {
  FOREIGN_CITIES,
  FOREIGN_COUNTRIES,
  FOREIGN_PROVINCES,
  PROVINCE_CODES,
  type ForeignPlace,
} from './foreign-places';
import { MAJOR_CITIES } from './major-cities';

/** What kind of location a message gave. */
export type LocationType =
  'zip' | 'city_state' | 'city' | 'state' | 'region' | 'international' | 'vague' | 'refused' | 'none';

/** The result of reading a location from a message: the location test's answer, always of a known type. */
export interface LocationDetection extends LocationTestResult {
  locationType: LocationType;
}

const CITY_BY_ALIAS = new Map(MAJOR_CITIES.map(([alias, city, state]) => [alias, { city, state }]));

const NONE: LocationDetection = {
  hasLocation: false,
  location: null,
  confidence: 0,
  locationType: 'none',
  refusedLocation: false,
};

interface Token {
  /** lower case, dots removed */
  text: string;
  raw: string;
  start: number;
  end: number;
  /** a comma separates it from the previous token */
  commaBefore: boolean;
}

/** Two-letter state codes that are also everyday words or greetings. */
const AMBIGUOUS_CODES = new Set([
  'or',
  'in',
  'me',
  'oh',
  'hi',
  'ok',
  'la',
  'pa',
  'ma',
  'de',
  'al',
  'co',
  'id',
  'mi',
  'mo',
  'ne',
  'as',
  'ms',
  'wa',
  'va',
]);

/** Single words that are real town names somewhere but far more often ordinary words. */
const COMMON_TOWN_WORDS = new Set(
  `plant garden home hope mission liberty union center lake river orange rose pine oak cedar
  sunrise sunset paradise eden energy bloom flower spring summer winter fall march may june
  august early late soil water rain sandy clay lawn grass weed tree trees fruit berry apple
  peach cherry plum lime lemon olive corn bean pea kale basil mint sage dill fig pot pots bed
  beds shade sun sunny cool cold hot warm wet dry green black white red brown gray yellow
  blue golden silver long short high low big little fair good best happy friendly mobile
  reading buffalo bath normal nice ideal independence commerce industry marshall jackson
  lincoln washington franklin madison clinton carmel the and`.split(/\s+/),
);

/** Major-city aliases that are also common words: they count only when capitalised or cued. */
const WORDLIKE_CITY_ALIASES = new Set([
  'boulder',
  'riverside',
  'providence',
  'charlotte',
  'savannah',
  'billings',
  'mesa',
  'reno',
  'indy',
  'vegas',
  'plano',
  'durham',
  'orlando',
  'austin',
  'phoenix',
  'eugene',
  'lexington',
  'irvine',
  'dc',
  'nome',
  'kodiak',
]);

/** Streets and places elsewhere that carry a city's name ("Ponce de Leon Ave" in Atlanta). */
const NOT_THE_CITY_AFTER: Readonly<Record<string, RegExp>> = {
  ponce: /^\s+(?:de\s+leon|city|inlet)\b/,
};

/** Token text: lower case, periods dropped ("N.C." -> "nc", "St." -> "st"). */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const re = /[A-Za-z0-9][A-Za-z0-9.'\u2019-]*/g;
  let prevEnd = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const raw = m[0].replace(/[.'\u2019-]+$/, '');
    const between = text.slice(prevEnd, m.index);
    tokens.push({
      text: raw
        .toLowerCase()
        .replace(/\./g, '')
        .replace(/\u2019/g, "'"),
      raw,
      start: m.index,
      end: m.index + raw.length,
      commaBefore: between.includes(',') || between.includes(';'),
    });
    prevEnd = m.index + m[0].length;
  }
  return tokens;
}

/**
 * Lower case with dotted abbreviations closed up ("u.k." -> "uk  "), padded so that offsets stay
 * those of the (already normalised) input.
 */
function flatten(normalized: string): string {
  return normalized
    .toLowerCase()
    .replace(
      /\b([a-z])\.([a-z])(\.?)(?![a-z])/g,
      (_m, a: string, b: string, dot: string) => `${a}${b} ${dot ? ' ' : ''}`,
    );
}

// ---------------------------------------------------------------- ZIP codes

const ZIP_RE = /(?<![\w$#.,/-])(\d{5})(?:-\d{4})?(?![\w/%]|[.,]\d|-\d)/g;
const NOT_ZIP_BEFORE =
  /(?:\$|#|\b(?:order|lot|model|serial|part|item|sku|account|acct|ticket|invoice|confirmation|tracking|reference|ref|case|phone|tel|fax|call|text|no|num|number|batch|code\s+(?:is\s+)?for|po|pin|id|room|suite|apt|unit|route|rt|highway|hwy|interstate)\s*(?:#|no\.?|number|num)?\s*(?:is\s+)?:?\s*)$/;
const NOT_ZIP_AFTER =
  /^\s*(?:\+|%|k\b|x\b|sq\b|sqft\b|square|ft\b|feet|foot|acres?|ac\b|yards?|yds?\b|meters?|m2|miles?|mi\b|km|gallons?|gal\b|lbs?\b|pounds?|oz\b|ounces?|tons?|kg|g\b|grams?|liters?|litres?|dollars?|bucks|usd|cents?|calories|steps|btu|watts?|w\b|lumens|lux|ppm|seeds?|plants?|bulbs?|trees?|ladybugs?|worms?|bees|flowers?|seedlings?|plugs?|sets|cuttings|pieces|pcs|units|people|views|followers|points|hours?|hrs?|minutes?|mins?|days?|years?|times|degrees?|deg\b|°)/;
const ZIP_CUE_BEFORE =
  /(?:\b(?:zip|zipcode|zip\s+code|postal\s+code|in|at|near|from|i'?m|im|i\s+am|we'?re|here|my|is|its|it's|live|living|moved\s+to)\s*(?:code)?\s*(?:is|=|:)?\s*)$/;

function detectZip(text: string, flat: string): LocationDetection | null {
  ZIP_RE.lastIndex = 0;
  for (let m = ZIP_RE.exec(text); m; m = ZIP_RE.exec(text)) {
    const zip = m[1];
    if (!zip) continue;
    const before = flat.slice(Math.max(0, m.index - 30), m.index);
    const after = flat.slice(m.index + m[0].length, m.index + m[0].length + 20);
    if (NOT_ZIP_BEFORE.test(before) || NOT_ZIP_AFTER.test(after)) continue;
    const info = lookupZip(zip);
    // A ZIP exists when the ZIP data or the zone table holds it (a zone borrowed from a
    // neighbouring ZIP proves nothing: "99999" is no ZIP).
    const zone = info ? null : hardinessZoneForZip(zip);
    if (!info && zone?.source !== 'table') continue;
    const whole = flat.replace(/[^a-z0-9]/g, '').length <= 9;
    const cued = whole || ZIP_CUE_BEFORE.test(before) || /^\s*(?:here|is my zip|zip)\b/.test(after);
    const zoneInfo = zone ?? hardinessZoneForZip(zip);
    return {
      hasLocation: true,
      location: info ? `${info.city}, ${info.state} ${zip}` : zip,
      confidence: cued ? 0.95 : 0.85,
      locationType: 'zip',
      refusedLocation: false,
      zipCode: zip,
      ...(info ? { city: info.city, state: info.state } : {}),
      country: 'United States',
      ...(zoneInfo ? { hardinessZone: zoneInfo.zone } : {}),
    };
  }
  return null;
}

// ---------------------------------------------------------------- city with state

interface StateMention {
  state: string;
  /** token index range [first, last] */
  first: number;
  last: number;
  strength: 'strong' | 'weak';
  fuzzy: boolean;
}

const FULL_STATE_NAMES: ReadonlyArray<readonly [string[], string]> = STATE_NAMES_LOWER.map(
  (name) => [name.split(' '), normalizeState(name) ?? ''] as const,
);

const STATE_NAMES_BY_FIRST_WORD = new Map<string, Array<readonly [string[], string]>>();
for (const entry of FULL_STATE_NAMES) {
  const first = entry[0][0] ?? '';
  const list = STATE_NAMES_BY_FIRST_WORD.get(first);
  if (list) list.push(entry);
  else STATE_NAMES_BY_FIRST_WORD.set(first, [entry]);
}
const fuzzyStateCache = new Map<string, string | null>();

/** A misspelt one-word state name ("Californa", "Tennesee"), by edit distance; null otherwise. */
function fuzzyStateName(word: string): string | null {
  if (word.length < 7 || !/^[a-z]+$/.test(word)) return null;
  const cached = fuzzyStateCache.get(word);
  if (cached !== undefined) return cached;
  let best: string | null = null;
  let bestDistance = 3;
  for (const [parts, code] of FULL_STATE_NAMES) {
    const name = parts[0] ?? '';
    if (parts.length !== 1 || name[0] !== word[0]) continue;
    const max = name.length >= 10 ? 2 : 1;
    if (Math.abs(name.length - word.length) > max) continue;
    const d = editDistance(word, name, max);
    if (d <= max && d < bestDistance) {
      best = code;
      bestDistance = d;
    }
  }
  if (fuzzyStateCache.size > 20_000) fuzzyStateCache.clear();
  fuzzyStateCache.set(word, best);
  return best;
}

function findStateMentions(tokens: Token[]): StateMention[] {
  const mentions: StateMention[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (!token) continue;
    let matched = false;
    for (const [parts, code] of STATE_NAMES_BY_FIRST_WORD.get(token.text) ?? []) {
      if (parts.every((p, k) => tokens[i + k]?.text === p)) {
        mentions.push({
          state: code,
          first: i,
          last: i + parts.length - 1,
          strength: 'strong',
          fuzzy: false,
        });
        matched = true;
        break;
      }
    }
    if (matched) continue;
    if (token.text.length === 2 && /^[a-z]{2}$/.test(token.text) && token.text.toUpperCase() in US_STATES) {
      const upper = token.raw.replace(/\./g, '') === token.raw.replace(/\./g, '').toUpperCase();
      const dotted = token.raw.includes('.');
      const strong = upper || dotted || token.commaBefore || !AMBIGUOUS_CODES.has(token.text);
      mentions.push({
        state: token.text.toUpperCase(),
        first: i,
        last: i,
        strength: strong ? 'strong' : 'weak',
        fuzzy: false,
      });
      continue;
    }
    const informal = token.text.length >= 3 && token.text.length <= 5 ? normalizeState(token.text) : null;
    if (informal && token.text.length > 2) {
      mentions.push({ state: informal, first: i, last: i, strength: 'weak', fuzzy: false });
      continue;
    }
    const fuzzy = ENGLISH_STOPWORDS.has(token.text) ? null : fuzzyStateName(token.text);
    if (fuzzy) mentions.push({ state: fuzzy, first: i, last: i, strength: 'weak', fuzzy: true });
  }
  return mentions;
}

function fuzzyCity(candidate: string, state: string): string | null {
  if (candidate.length < 5) return null;
  const cities = getCityIndex().citiesByState.get(state);
  if (!cities) return null;
  const max = candidate.length >= 9 ? 2 : 1;
  let best: string | null = null;
  let bestScore = Infinity;
  for (const [city, zipCount] of cities) {
    if (zipCount < 2 || city[0] !== candidate[0] || Math.abs(city.length - candidate.length) > max) continue;
    const d = editDistance(candidate, city, max);
    if (d > max) continue;
    const score = d * 1000 - zipCount;
    if (score < bestScore) {
      best = city;
      bestScore = score;
    }
  }
  return best;
}

/** A US city reading ("Portland, OR"), with the city's representative ZIP and its zone when known. */
function usCityResult(
  city: string,
  state: string,
  confidence: number,
  locationType: 'city_state' | 'city',
  display = city,
): LocationDetection {
  const zip = zipForCityState(city, state);
  const zone = zip ? hardinessZoneForZip(zip) : null;
  return {
    hasLocation: true,
    location: `${display}, ${state}`,
    confidence,
    locationType,
    refusedLocation: false,
    city: display,
    state,
    country: 'United States',
    ...(zip ? { zipCode: zip } : {}),
    ...(zone ? { hardinessZone: zone.zone } : {}),
  };
}

/** A city named with its state, shown as its post office spells it. */
const cityStateResult = (city: string, state: string, confidence: number): LocationDetection =>
  usCityResult(city, state, confidence, 'city_state', cityDisplayName(city, state) ?? city);

function detectCityState(tokens: Token[]): LocationDetection | null {
  const index = getCityIndex().byCityState;
  let fuzzyHit: LocationDetection | null = null;
  for (const mention of findStateMentions(tokens)) {
    const stateToken = tokens[mention.first];
    if (!stateToken) continue;
    // Longest city name first, up to four words, not across a comma.
    for (let length = Math.min(4, mention.first); length >= 1; length--) {
      const from = mention.first - length;
      const parts = tokens.slice(from, mention.first);
      if (parts.slice(1).some((t) => t.commaBefore)) continue;
      if (parts.some((t) => /^\d/.test(t.text))) continue;
      const joined = parts.map((t) => t.text).join(' ');
      const candidate = normalizeCityName(joined);
      // "phoenix or replace it": a lower-case "or" after a big city elsewhere is the word, not Oregon.
      const bigCity = CITY_BY_ALIAS.get(joined);
      if (mention.strength === 'weak' && bigCity && bigCity.state !== mention.state) continue;
      if (!index.has(`${candidate}|${mention.state}`)) {
        if (bigCity && bigCity.state === mention.state)
          return cityStateResult(normalizeCityName(bigCity.city), mention.state, 0.85);
        continue;
      }
      if (
        length === 1 &&
        (ENGLISH_STOPWORDS.has(candidate) ||
          (mention.strength === 'weak' && COMMON_TOWN_WORDS.has(candidate)))
      ) {
        continue;
      }
      const confidence = mention.fuzzy ? 0.7 : mention.strength === 'strong' ? 0.9 : 0.8;
      return cityStateResult(candidate, mention.state, confidence);
    }
    if (fuzzyHit || mention.fuzzy || (mention.strength === 'weak' && AMBIGUOUS_CODES.has(stateToken.text)))
      continue;
    for (let length = Math.min(3, mention.first); length >= 1; length--) {
      const parts = tokens.slice(mention.first - length, mention.first);
      if (
        parts.slice(1).some((t) => t.commaBefore) ||
        parts.some((t) => ENGLISH_STOPWORDS.has(t.text) || /\d/.test(t.text))
      ) {
        continue;
      }
      const city = fuzzyCity(normalizeCityName(parts.map((t) => t.text).join(' ')), mention.state);
      if (city) {
        fuzzyHit = cityStateResult(city, mention.state, 0.7);
        break;
      }
    }
  }
  return fuzzyHit;
}

// ---------------------------------------------------------------- context cues

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const CUE_BEFORE =
  /(?:^|[^a-z'])(?:in|near|outside(?:\s+of)?|around|by|nearby|(?:moved|moving|move|relocated|relocating)\s+to)\s+(?:the\s+)?(?:(?:city|state|province|country|area|suburbs|outskirts)\s+of\s+)?$/;
const CUE_BEFORE_PLACE = /(?:^|[^a-z'])(?:in|near|outside|around|from)\s+[a-z]+(?:\s+[a-z]+)?,?\s+$/;
const FROM_CUE_BEFORE =
  /(?:^\W*|\b(?:i'?m|im|i\s+am|we'?re|we\s+are|were|hi|hello|hey|greetings|texting|writing|gardener|gardening|live|living|us)\s+)(?:(?:originally|just|all\s+the\s+way)\s+)?from\s+(?:the\s+)?$/;
const NOT_RESIDENCE_BEFORE =
  /\b(?:made|grown|imported|produced|popular|common|native|originat\w*|found|sold|bred|developed|famous|introduced|invented|discovered|banned|legal|illegal|available|shipped|seeds|bulbs|plants|trees|species|variety|varieties|cultivar)\s+(?:in|from|near)\s+(?:the\s+)?$/;
const CUE_AFTER = /^\s*(?:,\s*)?(?:here|area|metro|suburbs?|resident|native|state|region|based|local)\b/;
const CITY_CUE_AFTER =
  /^\s*(?:,\s*)?(?:here|area|metro|suburbs?|resident|native|based|local|backyard|back\s+yard|yard|garden|gardener|gardening|apartment|apt|balcony|patio|rooftop|homeowner|house|home|condo|urban|city)\b/;
/** The whole message is the place, perhaps with "I'm in" and punctuation. */
const wholeMessage = (flat: string, start: number, end: number): boolean =>
  /^\W*(?:(?:i'?m|im|i\s+am|we'?re|we\s+are|i\s+live|we\s+live|live|living)\s+)?(?:in\s+)?(?:the\s+)?$/.test(
    flat.slice(0, start),
  ) && /^\W*(?:lol|btw|thanks|thx|here)?\W*$/.test(flat.slice(end));

function residenceCue(flat: string, start: number, end: number, cityLike: boolean): boolean {
  const before = flat.slice(Math.max(0, start - 60), start);
  if (NOT_RESIDENCE_BEFORE.test(before)) return false;
  if (CUE_BEFORE.test(before) || FROM_CUE_BEFORE.test(before)) return true;
  const after = flat.slice(end, end + 30);
  if ((cityLike ? CITY_CUE_AFTER : CUE_AFTER).test(after)) return true;
  return wholeMessage(flat, start, end);
}

// ---------------------------------------------------------------- international

interface ForeignMatch {
  place: ForeignPlace;
  start: number;
  end: number;
  kind: 'country' | 'province' | 'city' | 'code';
}

const FOREIGN_LOOKUP = new Map<string, { place: ForeignPlace; kind: ForeignMatch['kind'] }>();
for (const place of FOREIGN_CITIES)
  for (const name of place.names) FOREIGN_LOOKUP.set(name, { place, kind: 'city' });
for (const place of FOREIGN_PROVINCES)
  for (const name of place.names) FOREIGN_LOOKUP.set(name, { place, kind: 'province' });
for (const place of FOREIGN_COUNTRIES)
  for (const name of place.names) FOREIGN_LOOKUP.set(name, { place, kind: 'country' });

const FOREIGN_RE = new RegExp(
  String.raw`(?<![a-z])(?<!new\s)(?<!south\s)(${[...FOREIGN_LOOKUP.keys()]
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|')})(?![a-z])`,
  'g',
);
const PROVINCE_CODE_AFTER = /^\s*,?\s*(bc|ab|sk|mb|on|qc|ns|nb|nl|pe)(?![a-z])/;
const CANADIAN_POSTCODE = /\b[abceghj-nprstvxy]\d[abceghj-nprstv-z]\s?\d[abceghj-nprstv-z]\d\b/;
const UK_POSTCODE = /\b[a-z]{1,2}\d[a-z\d]?\s\d[abd-hjlnp-uw-z]{2}\b/;

function internationalResult(
  country: string,
  place: string | undefined,
  confidence: number,
): LocationDetection {
  return {
    hasLocation: true,
    location: place ? `${place}, ${country}` : country,
    confidence,
    locationType: 'international',
    refusedLocation: false,
    country,
  };
}

function detectInternational(flat: string): LocationDetection | null {
  if (CANADIAN_POSTCODE.test(flat)) return internationalResult('Canada', undefined, 0.9);
  if (UK_POSTCODE.test(flat)) return internationalResult('United Kingdom', undefined, 0.9);
  const matches: ForeignMatch[] = [];
  FOREIGN_RE.lastIndex = 0;
  for (let m = FOREIGN_RE.exec(flat); m; m = FOREIGN_RE.exec(flat)) {
    const found = m[1] ? FOREIGN_LOOKUP.get(m[1]) : undefined;
    if (!found) continue;
    const end = m.index + m[0].length;
    matches.push({ place: found.place, start: m.index, end, kind: found.kind });
    if (found.kind === 'city') {
      const code = PROVINCE_CODE_AFTER.exec(flat.slice(end));
      const country = code?.[1] ? PROVINCE_CODES[code[1]] : undefined;
      if (code && country) {
        matches.push({
          place: { names: [code[1] ?? ''], country },
          start: end,
          end: end + code[0].length,
          kind: 'code',
        });
      }
    }
  }
  for (let i = 0; i < matches.length; i++) {
    const match = matches[i];
    if (!match) continue;
    const next = matches[i + 1];
    const paired = next && /^[\s,]*$/.test(flat.slice(match.end, next.start));
    if (paired && next) {
      const cityPart = match.kind === 'city' || match.kind === 'province' ? match.place.place : undefined;
      return internationalResult(
        next.kind === 'code' ? match.place.country : next.place.country,
        cityPart,
        0.9,
      );
    }
    // "in Melbourne, Australia": a country right after a cued place name.
    const cuedPlaceBefore =
      match.kind !== 'city' && CUE_BEFORE_PLACE.test(flat.slice(Math.max(0, match.start - 50), match.start));
    if (cuedPlaceBefore || residenceCue(flat, match.start, match.end, match.kind === 'city')) {
      return internationalResult(match.place.country, match.place.place, 0.85);
    }
  }
  return null;
}

// ---------------------------------------------------------------- regions, states and cities alone

function regionResult(region: NamedRegion): LocationDetection {
  const zone = region.representativeZip ? hardinessZoneForZip(region.representativeZip) : null;
  return {
    hasLocation: true,
    location: region.name,
    confidence: region.confidence,
    locationType: 'region',
    refusedLocation: false,
    region: region.name,
    ...(region.states.length === 1 && region.states[0] ? { state: region.states[0] } : {}),
    country: 'United States',
    ...(zone ? { hardinessZone: zone.zone } : {}),
  };
}

function detectRegion(flat: string): LocationDetection | null {
  for (const region of NAMED_REGIONS) {
    if (region.patterns.some((p) => p.test(flat))) return regionResult(region);
  }
  return null;
}

const STATE_NAME_RE = new RegExp(
  String.raw`(?<![a-z])(${STATE_NAMES_LOWER.filter((n) => n !== 'washington dc')
    .map(escape)
    .join('|')})(?![a-z])`,
  'g',
);

function stateResult(code: string, confidence: number): LocationDetection {
  return {
    hasLocation: true,
    location: stateName(code) ?? code,
    confidence,
    locationType: 'state',
    refusedLocation: false,
    state: code,
    country: 'United States',
  };
}

/** "kansas city", "oklahoma city": a well-known city named after its state, not the state. */
const cityAfterState = (state: string, after: string): boolean =>
  /^\s*city\b/.test(after) && CITY_BY_ALIAS.has(`${state} city`);

function detectStateAlone(flat: string, tokens: Token[]): LocationDetection | null {
  STATE_NAME_RE.lastIndex = 0;
  let origin: LocationDetection | null = null;
  for (let m = STATE_NAME_RE.exec(flat); m; m = STATE_NAME_RE.exec(flat)) {
    const code = m[1] ? normalizeState(m[1]) : null;
    if (!code) continue;
    const end = m.index + m[0].length;
    if (cityAfterState(m[0].trim(), flat.slice(end))) continue;
    if (!residenceCue(flat, m.index, end, false)) continue;
    // "I'm from Ohio but live in Arizona": where they live beats where they are from.
    const fromOnly = FROM_CUE_BEFORE.test(flat.slice(Math.max(0, m.index - 60), m.index)) && m.index > 0;
    if (!fromOnly) return stateResult(code, 0.6);
    origin ??= stateResult(code, 0.5);
  }
  if (origin) return origin;
  for (const token of tokens) {
    const start = token.start;
    const end = token.end;
    if (cityAfterState(token.text, flat.slice(end))) continue;
    if (token.text.length === 2 && token.text.toUpperCase() in US_STATES) {
      const upper = token.raw === token.raw.toUpperCase();
      if ((upper || !AMBIGUOUS_CODES.has(token.text)) && residenceCue(flat, start, end, false)) {
        // "I'm in LA" means Los Angeles far more often than Louisiana.
        if (token.text === 'la') return cityAloneResult('Los Angeles', 'CA', 0.6);
        return stateResult(token.text.toUpperCase(), 0.55);
      }
      continue;
    }
    const fuzzy = ENGLISH_STOPWORDS.has(token.text) ? null : fuzzyStateName(token.text);
    if (fuzzy && residenceCue(flat, start, end, false)) return stateResult(fuzzy, 0.5);
  }
  return null;
}

const CITY_RE = new RegExp(
  String.raw`(?<![a-z])(${MAJOR_CITIES.map(([alias]) => alias)
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|')})(?![a-z])`,
  'g',
);

function detectCityAlone(text: string, flat: string): LocationDetection | null {
  CITY_RE.lastIndex = 0;
  for (let m = CITY_RE.exec(flat); m; m = CITY_RE.exec(flat)) {
    const alias = m[1] ?? '';
    const found = CITY_BY_ALIAS.get(alias);
    if (!found) continue;
    const end = m.index + m[0].length;
    if (NOT_THE_CITY_AFTER[alias]?.test(flat.slice(end, end + 20))) continue;
    if (WORDLIKE_CITY_ALIASES.has(alias)) {
      const raw = text.slice(m.index, end);
      const capitalised = /^[A-Z]/.test(raw);
      if (
        !capitalised &&
        !wholeMessage(flat, m.index, end) &&
        !CUE_BEFORE.test(flat.slice(Math.max(0, m.index - 40), m.index))
      ) {
        continue;
      }
    }
    if (!residenceCue(flat, m.index, end, true)) continue;
    return cityAloneResult(found.city, found.state, 0.7);
  }
  return null;
}

/** A well-known city named alone, its state inferred. */
const cityAloneResult = (city: string, state: string, confidence: number): LocationDetection =>
  usCityResult(city, state, confidence, 'city');

// ---------------------------------------------------------------- refusals and vague answers

const REFUSAL_PATTERNS: readonly RegExp[] = [
  /\b(?:rather|prefer(?:ring)?)\s+not\s+(?:to\s+)?(?:say|share|tell|give|disclose|provide|answer|send|put|reveal)\b/,
  /\b(?:rather|prefer)\s+not\s*(?:[.!?]|$)/,
  /\b(?:rather|prefer|like)\s+(?:to\s+)?(?:keep|keeping)\s+(?:that|it|this|my\s+\w+)\s+(?:private|to\s+myself|secret)\b/,
  /\bnot\s+(?:telling|saying|sharing|giving|disclosing)\b/,
  /\b(?:not|never)\s+(?:gonna|going\s+to|about\s+to)\s+(?:say|tell|share|give)\b/,
  /\b(?:won'?t|wont|will\s+not|can'?t|cannot)\s+(?:say|tell|share|give|disclose)\b/,
  /\bnone\s+of\s+your\s+(?:business|concern|beeswax)\b/,
  /\bnunya\b/,
  /\b(?:don'?t|dont|do\s+not)\s+(?:want|wanna|need|like|feel\s+like|care)\s+(?:to\s+)?(?:give|share|say|tell|provide|disclose|send|reveal|put)\b/,
  /\bnot\s+(?:comfortable|ok|okay|keen)\s+(?:with\s+)?(?:sharing|giving|saying|telling|disclosing)\b/,
  /\b(?:that'?s|thats|it'?s|its|that\s+is)\s+(?:private|personal|confidential)\b/,
  /\bwhy\s+do\s+you\s+(?:need|want)\s+(?:to\s+know\s+)?(?:my|where)\b/,
  /\b(?:pass|skip|no\s+thanks)\b.{0,20}\b(?:zip|zipcode|location|address|where\s+i\s+live)\b/,
  /\b(?:skip|forget|ignore)\s+(?:the\s+)?(?:location|zip|zipcode|address)\b/,
  /^\W*no\s+(?:zip|zipcode|location)\b/,
  /\bdo\s+i\s+(?:have|need)\s+to\s+(?:tell|say|give|share)\b/,
  /\b(?:private|anonymous)\b.{0,30}\b(?:location|zip|address|where\s+i\s+live)\b/,
];

const VAGUE_PATTERNS: readonly RegExp[] = [
  /\b(?:near|by|on|at|along|off|close\s+to)\s+the\s+(?:coast|beach|ocean|sea|shore|water|lake|river|bay|mountains?|border|hills|woods|forest|desert)\b/,
  /\bup\s+north\b/,
  /\bdown\s+east\b/,
  /\bout\s+(?:west|east)\b/,
  /\bback\s+(?:east|west|home)\b/,
  /\bin\s+the\s+(?:mountains|hills|foothills|city|country|countryside|suburbs|burbs|desert|valley|woods|boonies|sticks|tropics|north|east|west|middle\s+of\s+nowhere)\b/,
  /\b(?:a\s+)?small\s+town\b/,
  /\bsomewhere\s+(?:cold|warm|hot|humid|dry|sunny|rainy|snowy|north|south|east|west|in\s+the\s+\w+)\b/,
  /\bout\s+in\s+the\s+(?:country|sticks|boonies)\b/,
  /\bcountryside\b/,
  /\brural\s+(?:area|town|county)\b/,
  /\bwhere\s+it\s+(?:snows|rains|freezes|gets\s+cold|is\s+cold|is\s+hot)\b/,
  /^\W*(?:the\s+)?(?:coast|mountains|country|city|suburbs|valley|desert)\W*$/,
];

/**
 * Place names as the ZIP data spells them: Latin letters without accents ("Mayagüez", "Bayamón")
 * and Hawaiian words without the okina ("Hawaiʻi", "Kauaʻi").
 */
const foldPlaceLetters = (text: string): string =>
  text.normalize('NFD').replace(/[\u0300-\u036f\u02bb]/g, '');

/** Whether the message declines to give a location ("I'd rather not say", "none of your business"). */
export function isLocationRefusal(text: string): boolean {
  const flat = flatten(normalizeText(analysisWindow(text)));
  return REFUSAL_PATTERNS.some((p) => p.test(flat));
}

/**
 * Reads a location from a text message: a US ZIP or ZIP+4 (only ZIPs that exist, and not prices,
 * counts, phone numbers or measurements), a city with its state (names or codes, any case, comma
 * or not, common misspellings), a major city alone or a state alone when the wording says it is
 * where the person is ("I'm in Ohio", "Denver area"), a region people use ("Pacific Northwest",
 * "Bay Area"), or a place abroad (locationType "international"). Vague answers ("near the coast")
 * give locationType "vague" with no location; refusals set refusedLocation. Only the first
 * ANALYSIS_MAX_CHARS characters are read.
 */
export function detectLocation(text: string): LocationDetection {
  const normalized = foldPlaceLetters(normalizeText(analysisWindow(text)));
  if (normalized === '') return { ...NONE };
  const flat = flatten(normalized);
  const tokens = tokenize(normalized);
  const found =
    detectZip(normalized, flat) ??
    detectCityState(tokens) ??
    detectInternational(flat) ??
    detectRegion(flat) ??
    detectStateAlone(flat, tokens) ??
    detectCityAlone(normalized, flat);
  if (found) return found;
  if (REFUSAL_PATTERNS.some((p) => p.test(flat))) {
    return {
      hasLocation: false,
      location: null,
      confidence: 0.9,
      locationType: 'refused',
      refusedLocation: true,
    };
  }
  if (VAGUE_PATTERNS.some((p) => p.test(flat))) {
    return {
      hasLocation: false,
      location: null,
      confidence: 0.2,
      locationType: 'vague',
      refusedLocation: false,
    };
  }
  return { ...NONE };
}
