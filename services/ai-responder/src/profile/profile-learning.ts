import type { Sentiment, UserProfile } from '@sprout/domain';
import { type ExperienceLevel, type SoilType, normalizeSoilType, wordCount } from '@sprout/gardening';

// Profile learning: what a gardener's own words say about where and how they grow, how much they
// know, and how they like to talk. Learned values fill gaps only; profile commands (LEVEL, SOIL)
// and earlier answers are never overwritten by a guess.

export interface ProfileSignals {
  /** Where they grow: "raised beds", "containers", "balcony"... */
  growingContexts: string[];
  experienceLevel: ExperienceLevel | null;
  soilType: SoilType | null;
}

const FIRST_PERSON = String.raw`\b(?:my|our|i\s+have|i've\s+got|we\s+have|i\s+(?:grow|garden|plant)\s+(?:in|on)|in\s+(?:my|our)|on\s+(?:my|our))\s+(?:\w+\s+){0,2}?`;

const CONTEXTS: ReadonlyArray<readonly [string, string]> = [
  ['raised beds', String.raw`raised[\s-]+(?:garden\s+)?beds?`],
  ['containers', String.raw`(?:containers?|pots|planters?|grow\s+bags?|window\s+boxe?s?)`],
  ['balcony', String.raw`balcon(?:y|ies)`],
  ['patio', String.raw`(?:patio|deck|porch)`],
  ['rooftop', String.raw`(?:rooftop|roof\s+garden)`],
  ['greenhouse', String.raw`(?:greenhouse|polytunnel|hoop\s*house|cold\s+frame)`],
  ['indoors', String.raw`(?:windowsill|grow\s+lights?|apartment|houseplants?|indoor\s+garden)`],
  ['community garden', String.raw`(?:community\s+garden|allotment|garden\s+plot)`],
  ['backyard', String.raw`(?:back\s*yard|yard|garden\s+beds?|vegetable\s+garden|veggie\s+garden)`],
  ['farm', String.raw`(?:farm|homestead|acres?|orchard)`],
];
// "in pots", "on the balcony": where something grows, said in passing.
const LOCATIVE = String.raw`\b(?:in|into|on)\s+(?:(?:a|the|some|small|big|large|little|few)\s+){0,2}`;
const CONTEXT_PATTERNS = CONTEXTS.map(
  ([name, core]) => [name, new RegExp(`(?:${FIRST_PERSON}|${LOCATIVE})${core}\\b`, 'i')] as const,
);

const BEGINNER: readonly RegExp[] = [
  /\b(?:new|newbie|novice|beginner)\s+(?:to\s+)?(?:gardening|gardener|at\s+this|here)\b/i,
  /\bi'?m\s+(?:a\s+)?(?:total\s+|complete\s+)?(?:beginner|newbie|novice)\b/i,
  /\b(?:first|1st)\s+(?:time\s+(?:gardening|growing|planting)|(?:year|season)\s+(?:of\s+)?(?:gardening|growing)|(?:vegetable\s+|veggie\s+)?garden\b)/i,
  /\bnever\s+(?:grown|gardened|planted|had\s+a\s+garden)\b/i,
  /\bjust\s+(?:started|starting|getting\s+(?:started|into))\s+(?:gardening|to\s+garden|a\s+garden)\b/i,
  /\b(?:don'?t|do\s+not)\s+know\s+(?:much|anything)\s+about\s+(?:gardening|plants)\b/i,
  /\bblack\s+thumb\b/i,
];
const ADVANCED: readonly RegExp[] = [
  /\bmaster\s+gardener\b/i,
  /\b(?:gardening|growing|gardened|grown\s+\w+)\s+for\s+(?:over\s+|more\s+than\s+|about\s+)?(?:(?:[5-9]|[1-9]\d)\+?\s+(?:years|yrs)|many\s+years|decades|years)\b/i,
  /\b(?:[5-9]|[1-9]\d)\+?\s+(?:years|yrs)\s+(?:of\s+)?(?:gardening|growing)\b/i,
  /\b(?:experienced|seasoned|lifelong|professional)\s+(?:gardener|grower|horticulturist)\b/i,
  /\b(?:npk|cultivars?|mycorrhiza\w*|cation\s+exchange|brix|hugelkultur|stratif\w+|scarif\w+|grafting|rootstock|soil\s+test\s+(?:shows|says|came\s+back))\b/i,
];

const SOIL_STATEMENT =
  /\b(?:my|our|the)\s+(?:garden\s+|yard\s+|native\s+)?soil\s+(?:is|here\s+is|is\s+mostly|is\s+all)\s+(?:very\s+|really\s+|heavy\s+|pure\s+|mostly\s+)?([a-z]+(?:\s+loam)?)\b|\b(?:heavy|red|hard|sticky)?\s*(clay|sandy|sandy\s+loam|loamy|silty|rocky|chalky|peaty)\s+soil\b/i;

/** What one message says about the gardener. */
export const readProfileSignals = (text: string): ProfileSignals => {
  const growingContexts = CONTEXT_PATTERNS.filter(([, pattern]) => pattern.test(text)).map(([name]) => name);
  let experienceLevel: ExperienceLevel | null = null;
  if (BEGINNER.some((pattern) => pattern.test(text))) experienceLevel = 'beginner';
  else if (ADVANCED.some((pattern) => pattern.test(text))) experienceLevel = 'advanced';
  const soil = SOIL_STATEMENT.exec(text);
  const soilWord = soil?.[1] ?? soil?.[2];
  return {
    growingContexts,
    experienceLevel,
    soilType: soilWord === undefined ? null : normalizeSoilType(soilWord),
  };
};

/**
 * How a gardener writes, from their recent texts: "brief" (a few words at a time), "detailed"
 * (long descriptions) or "conversational". Null before there is anything to go on.
 */
export const conversationStyleOf = (texts: readonly string[]): string | null => {
  const counted = texts.map((text) => wordCount(text)).filter((words) => words > 0);
  if (counted.length === 0) return null;
  const average = counted.reduce((sum, words) => sum + words, 0) / counted.length;
  if (average < 7) return 'brief';
  if (average > 30) return 'detailed';
  return 'conversational';
};

const MAX_PREFERENCES = 10;
const MAX_CONTEXTS = 3;

/** Most recent first, without repeats, at most `max`. */
const recentFirst = (fresh: readonly string[], earlier: readonly string[], max: number): string[] =>
  [...new Set([...fresh, ...earlier])].slice(0, max);

/** The profile after one message: learned values fill gaps, topics become preferences, style updates. */
export const learnProfile = (
  profile: UserProfile,
  signals: ProfileSignals,
  topics: readonly string[],
  style: string | null,
): UserProfile => {
  const next: UserProfile = { ...profile };
  if (signals.growingContexts.length > 0) {
    const earlier = profile.growingContext ? profile.growingContext.split(/\s*,\s*/) : [];
    next.growingContext = recentFirst(signals.growingContexts, earlier, MAX_CONTEXTS).join(', ');
  }
  if (topics.length > 0) next.preferences = recentFirst(topics, profile.preferences ?? [], MAX_PREFERENCES);
  if (!profile.experienceLevel && signals.experienceLevel) next.experienceLevel = signals.experienceLevel;
  if (!profile.soilType && signals.soilType) next.soilType = signals.soilType;
  if (style !== null) next.conversationStyle = style;
  return next;
};

/** How complete a profile is, 0-100: location, zone, soil, experience, where they grow, interests, style. */
export const profileCompletionScore = (
  user: { zipCode: string | null; hardinessZone: string | null; region: string | null },
  profile: UserProfile,
): number => {
  const parts = [
    user.zipCode !== null || user.region !== null,
    user.hardinessZone !== null,
    Boolean(profile.soilType),
    Boolean(profile.experienceLevel),
    Boolean(profile.growingContext),
    (profile.preferences ?? []).length > 0,
    Boolean(profile.conversationStyle),
  ];
  return Math.round((parts.filter(Boolean).length / parts.length) * 100);
};

const WEIGHT: Readonly<Record<Sentiment, number>> = { positive: 1, neutral: 0, negative: -1, frustrated: -2 };

/**
 * The mood of a run of messages (oldest first): frustrated when either of the last two messages
 * is, else the sign of the average (positive, negative, or neutral when it is close to zero).
 */
export const overallSentiment = (sentiments: readonly Sentiment[]): Sentiment | null => {
  if (sentiments.length === 0) return null;
  if (sentiments.slice(-2).includes('frustrated')) return 'frustrated';
  const average = sentiments.reduce((sum, s) => sum + WEIGHT[s], 0) / sentiments.length;
  if (average > 0.25) return 'positive';
  if (average < -0.25) return 'negative';
  return 'neutral';
};
