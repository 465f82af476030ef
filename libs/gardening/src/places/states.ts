/** US states, DC and inhabited territories: two-letter code to full name. */
export const US_STATES: Readonly<Record<string, string>> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
  PR: 'Puerto Rico',
  VI: 'U.S. Virgin Islands',
  GU: 'Guam',
  AS: 'American Samoa',
  MP: 'Northern Mariana Islands',
};

/** Broad gardening regions, one per state (the `regionForState` answers). */
export type StateRegion =
  | 'Pacific Northwest'
  | 'California'
  | 'Southwest'
  | 'Mountain West'
  | 'South Central'
  | 'Midwest'
  | 'Northeast'
  | 'Mid-Atlantic'
  | 'Southeast'
  | 'Alaska'
  | 'Hawaii'
  | 'Caribbean'
  | 'Pacific Islands';

const STATE_REGIONS: Readonly<Record<string, StateRegion>> = {
  WA: 'Pacific Northwest',
  OR: 'Pacific Northwest',
  CA: 'California',
  AZ: 'Southwest',
  NM: 'Southwest',
  NV: 'Southwest',
  CO: 'Mountain West',
  UT: 'Mountain West',
  WY: 'Mountain West',
  MT: 'Mountain West',
  ID: 'Mountain West',
  TX: 'South Central',
  OK: 'South Central',
  AR: 'South Central',
  LA: 'South Central',
  OH: 'Midwest',
  IN: 'Midwest',
  IL: 'Midwest',
  MI: 'Midwest',
  WI: 'Midwest',
  MN: 'Midwest',
  IA: 'Midwest',
  MO: 'Midwest',
  KS: 'Midwest',
  NE: 'Midwest',
  SD: 'Midwest',
  ND: 'Midwest',
  ME: 'Northeast',
  NH: 'Northeast',
  VT: 'Northeast',
  MA: 'Northeast',
  RI: 'Northeast',
  CT: 'Northeast',
  NY: 'Northeast',
  NJ: 'Northeast',
  PA: 'Northeast',
  DE: 'Mid-Atlantic',
  MD: 'Mid-Atlantic',
  DC: 'Mid-Atlantic',
  VA: 'Mid-Atlantic',
  WV: 'Mid-Atlantic',
  NC: 'Southeast',
  SC: 'Southeast',
  GA: 'Southeast',
  FL: 'Southeast',
  AL: 'Southeast',
  MS: 'Southeast',
  TN: 'Southeast',
  KY: 'Southeast',
  AK: 'Alaska',
  HI: 'Hawaii',
  PR: 'Caribbean',
  VI: 'Caribbean',
  GU: 'Pacific Islands',
  AS: 'Pacific Islands',
  MP: 'Pacific Islands',
};

const NAME_TO_CODE = new Map<string, string>(
  Object.entries(US_STATES).map(([code, name]) => [name.toLowerCase(), code]),
);
NAME_TO_CODE.set('washington dc', 'DC');
NAME_TO_CODE.set('virgin islands', 'VI');
NAME_TO_CODE.set('us virgin islands', 'VI');
// The Hawaiian spelling, with the okina typed as an apostrophe.
NAME_TO_CODE.set("hawai'i", 'HI');

/** Abbreviations people write besides the postal codes ("Tenn.", "Calif", "Mass"...). */
const INFORMAL_ABBREVIATIONS: Readonly<Record<string, string>> = {
  ala: 'AL',
  ariz: 'AZ',
  ark: 'AR',
  calif: 'CA',
  cali: 'CA',
  colo: 'CO',
  conn: 'CT',
  fla: 'FL',
  ill: 'IL',
  ind: 'IN',
  kan: 'KS',
  kans: 'KS',
  mass: 'MA',
  mich: 'MI',
  minn: 'MN',
  miss: 'MS',
  mont: 'MT',
  neb: 'NE',
  nebr: 'NE',
  nev: 'NV',
  okla: 'OK',
  ore: 'OR',
  oreg: 'OR',
  penn: 'PA',
  penna: 'PA',
  tenn: 'TN',
  tex: 'TX',
  wash: 'WA',
  wis: 'WI',
  wisc: 'WI',
  wyo: 'WY',
};

/**
 * The two-letter code for a state given as a code ("or", "OR", "N.C.") or a name ("oregon",
 * "New Mexico", "Tenn."); null when it is not a US state, DC or territory.
 */
export function normalizeState(input: string): string | null {
  const cleaned = input.trim().toLowerCase().replace(/\./g, '').replace(/\s+/g, ' ');
  if (cleaned.length === 2) {
    const code = cleaned.toUpperCase();
    return code in US_STATES ? code : null;
  }
  return NAME_TO_CODE.get(cleaned) ?? INFORMAL_ABBREVIATIONS[cleaned] ?? null;
}

/** Full state name for a two-letter code (any case), or null. */
export function stateName(code: string): string | null {
  return US_STATES[code.toUpperCase()] ?? null;
}

/**
 * The broad gardening region of a state ("Pacific Northwest", "Northeast", "Southeast", "Midwest",
 * "Southwest", "Mountain West", "California", ...), given its code or name; null when unknown.
 */
export function regionForState(state: string): StateRegion | null {
  const code = normalizeState(state);
  return code ? (STATE_REGIONS[code] ?? null) : null;
}

/** Lower-case full state names, longest first (for scanning text). */
export const STATE_NAMES_LOWER: readonly string[] = [...NAME_TO_CODE.keys()].sort(
  (a, b) => b.length - a.length,
);
