import { HELP_KEYWORDS, OPT_IN_KEYWORDS, OPT_OUT_KEYWORDS } from '@sprout/contracts';
import { hardinessZoneForZip } from '../places/hardiness';
import { normalizeZone } from '../places/frost';
import { lookupZip } from '../places/zip';

/** Which profile field a text command sets. */
export type ProfileCommandKind = 'zip' | 'zone' | 'soil' | 'level';

/** Soil types a profile can hold. */
export const SOIL_TYPES = [
  'clay',
  'clay loam',
  'loam',
  'sandy loam',
  'sandy',
  'silt',
  'peat',
  'chalk',
  'rocky',
] as const;
export type SoilType = (typeof SOIL_TYPES)[number];

/** Experience levels a profile can hold. */
export const EXPERIENCE_LEVELS = ['beginner', 'intermediate', 'advanced'] as const;
export type ExperienceLevel = (typeof EXPERIENCE_LEVELS)[number];

/** A well-formed command with a valid value ("ZIP 98101" -> {kind: 'zip', value: '98101'}). */
export interface ValidProfileCommand {
  kind: ProfileCommandKind;
  value: string;
}

/** A command whose value is not valid ("ZIP 00000"): value is null and error says why, for the SMS. */
export interface InvalidProfileCommand {
  kind: ProfileCommandKind;
  value: null;
  error: string;
}

export type ProfileCommand = ValidProfileCommand | InvalidProfileCommand;

const COMMAND_RE =
  /^\s*(zip\s*code|zipcode|zip|postal\s*code|zone|soil(?:\s*type)?|level|experience(?:\s*level)?)\s*[:=-]?\s*(.*?)\s*[.!]*\s*$/i;

const SOIL_ALIASES: Readonly<Record<string, SoilType>> = {
  clay: 'clay',
  clayey: 'clay',
  'heavy clay': 'clay',
  'red clay': 'clay',
  'clay loam': 'clay loam',
  loam: 'loam',
  loamy: 'loam',
  'sandy loam': 'sandy loam',
  sand: 'sandy',
  sandy: 'sandy',
  silt: 'silt',
  silty: 'silt',
  peat: 'peat',
  peaty: 'peat',
  chalk: 'chalk',
  chalky: 'chalk',
  rocky: 'rocky',
  rock: 'rocky',
  gravel: 'rocky',
  gravelly: 'rocky',
};

const LEVEL_ALIASES: Readonly<Record<string, ExperienceLevel>> = {
  beginner: 'beginner',
  beginners: 'beginner',
  novice: 'beginner',
  new: 'beginner',
  newbie: 'beginner',
  'first time': 'beginner',
  intermediate: 'intermediate',
  medium: 'intermediate',
  some: 'intermediate',
  advanced: 'advanced',
  expert: 'advanced',
  experienced: 'advanced',
  pro: 'advanced',
  master: 'advanced',
};

/** The alias table's key of a typed value: lower case, single spaces, its trailing noun removed. */
const aliasKey = (input: string, noun: RegExp): string =>
  input.trim().toLowerCase().replace(/\s+/g, ' ').replace(noun, '');

/** Normalises a soil type ("Sandy loam", "clayey") or returns null. */
export function normalizeSoilType(input: string): SoilType | null {
  return SOIL_ALIASES[aliasKey(input, /\s+soil$/)] ?? null;
}

/** Normalises an experience level ("Expert" -> "advanced") or returns null. */
export function normalizeExperienceLevel(input: string): ExperienceLevel | null {
  return LEVEL_ALIASES[aliasKey(input, /\s+gardener$/)] ?? null;
}

/**
 * Parses a profile command texted by a user: "ZIP 98101", "ZONE 7b", "SOIL clay", "LEVEL beginner"
 * (any case, optional colon). Returns null when the text is not such a command; a command with a
 * bad value (unknown ZIP, zone outside 1a-13b, unknown soil or level) comes back with value null
 * and an `error` to text back.
 */
export function parseProfileCommand(text: string): ProfileCommand | null {
  const match = COMMAND_RE.exec(text);
  if (!match?.[1]) return null;
  const keyword = match[1].toLowerCase().replace(/\s+/g, '');
  const raw = (match[2] ?? '').trim();
  // A command is short ("zone 7b"), unlike "zone 7b is cold, what can I grow?".
  if (raw === '' || raw.split(/\s+/).length > 2) return null;
  // "SOIL mud" or "soil: mud" is a command with a bad value; "level ground?" is just a message.
  const explicit = match[1] === match[1].toUpperCase() || /^\s*\w+(?:\s+\w+)?\s*[:=]/.test(text);
  if (keyword.startsWith('zip') || keyword.startsWith('postal')) {
    if (!/^\d{5}(?:-\d{4})?$/.test(raw)) {
      return explicit || /^\d+$/.test(raw)
        ? { kind: 'zip', value: null, error: 'Please send a 5-digit US ZIP code, like: ZIP 98101' }
        : null;
    }
    const zip = raw.slice(0, 5);
    if (!lookupZip(zip) && !hardinessZoneForZip(zip)) {
      return {
        kind: 'zip',
        value: null,
        error: `I couldn't find ZIP ${zip}. Please check it and send: ZIP 12345`,
      };
    }
    return { kind: 'zip', value: zip };
  }
  if (keyword === 'zone') {
    const zone = normalizeZone(raw);
    if (zone) return { kind: 'zone', value: zone };
    return explicit || /^\d/.test(raw)
      ? { kind: 'zone', value: null, error: 'Please send a USDA zone from 1a to 13b, like: ZONE 7b' }
      : null;
  }
  if (keyword.startsWith('soil')) {
    const soil = normalizeSoilType(raw);
    if (soil) return { kind: 'soil', value: soil };
    return explicit
      ? { kind: 'soil', value: null, error: `Soil can be: ${SOIL_TYPES.join(', ')}. Example: SOIL clay` }
      : null;
  }
  const level = normalizeExperienceLevel(raw);
  if (level) return { kind: 'level', value: level };
  return explicit
    ? {
        kind: 'level',
        value: null,
        error: 'Level can be beginner, intermediate or advanced. Example: LEVEL beginner',
      }
    : null;
}

/** The confirmation SMS for a valid profile command ("Saved: ZIP 98101 (Seattle, WA), zone 9a."). */
export function describeProfileCommand(command: ProfileCommand): string {
  if (command.value === null) return command.error;
  switch (command.kind) {
    case 'zip': {
      const place = lookupZip(command.value);
      const zone = hardinessZoneForZip(command.value);
      const where = place ? ` (${place.city}, ${place.state})` : '';
      return `Saved: ZIP ${command.value}${where}${zone ? `, hardiness zone ${zone.zone}` : ''}. My advice will now fit your area.`;
    }
    case 'zone':
      return `Saved: hardiness zone ${command.value}. I'll time my advice to it.`;
    case 'soil':
      return `Saved: ${command.value} soil. I'll keep it in mind.`;
    case 'level':
      return `Saved: ${command.value} gardener. I'll pitch my answers to match.`;
  }
}

/** SMS service keywords handled by the gateway (opt-out, opt-in, help), upper case. */
export const SERVICE_KEYWORDS: readonly string[] = [
  ...OPT_OUT_KEYWORDS,
  ...OPT_IN_KEYWORDS,
  ...HELP_KEYWORDS,
];

/** Whether the whole message is an SMS service keyword (STOP, HELP, START...). */
export function isServiceKeyword(text: string): boolean {
  return SERVICE_KEYWORDS.includes(
    text
      .trim()
      .replace(/[.!]+$/, '')
      .toUpperCase(),
  );
}
