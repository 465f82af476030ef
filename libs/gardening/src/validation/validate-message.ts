import type {
  ValidationResult as ValidationAnswer,
  ValidationIssue,
  ValidationResponseType,
} from '@sprout/contracts';
import type { TextAnalysis } from '../analysis/text-analysis';
import { detectTopics, type Topic } from '../analysis/topics';
import { detectLocation, type LocationDetection } from '../location/detect-location';
import { namesKnownPlant } from '../advisor/plants';
import { lookupZip } from '../places/zip';
import { isServiceKeyword, parseProfileCommand } from '../processing/profile-commands';
import { analysisWindow, normalizeText, wordCount } from '../text/words';
import { readLanguage } from './language';
import { mentionsLatinPlantName } from './plant-names';
import { detectSafetyConcern, type SafetyCategory } from './safety';

export type { ValidationIssue, ValidationResponseType };

/** The kind of small talk a conversational message is. */
export type ConversationKind = 'greeting' | 'thanks' | 'acknowledgement' | 'goodbye' | 'about';

/** The validation result (the tester's answer), with the kinds of safety concern and small talk named. */
export interface ValidationResult extends ValidationAnswer {
  safetyCategory?: SafetyCategory;
  conversation?: ConversationKind;
}

/** What the validator knows about the sender (its userContext). */
export interface ValidationUserContext {
  zip_code?: string | null;
  region?: string | null;
  hardiness_zone?: string | null;
  /**
   * The sender's earlier messages in this conversation, oldest first. In an ongoing gardening
   * conversation nothing is refused as off-topic: "ok they flopped over, now what" continues it.
   */
  conversation?: readonly string[] | null;
}

/** How many earlier messages make a conversation ongoing. */
const CONVERSATION_REACH = 4;

/** The area Sprout serves: countries (only "United States" is supported) and optionally states. */
export interface ServiceArea {
  /** Two-letter state codes served; absent means every US state and territory. */
  states?: readonly string[];
}

let serviceArea: ServiceArea = {};

/** Restricts (or, with `{}`, resets to the whole United States) the area messages are served in. */
export function configureServiceArea(area: ServiceArea): void {
  serviceArea = { ...(area.states ? { states: area.states.map((s) => s.toUpperCase()) } : {}) };
}

// ---------------------------------------------------------------- small talk

const GREETING =
  /^(?:hi+|hello+|hey+|hiya|howdy|yo|hola|bonjour|hallo|ola|ciao|good\s+(?:morning|afternoon|evening|day)|greetings|sup|what'?s\s+up|hi\s+there|hey\s+there|hello\s+there|hey\s+sprout|hi\s+sprout|hello\s+sprout)$/;
const THANKS =
  /^(?:(?:thanks?|thank\s+you|thx|ty)\s+(?:so\s+much|a\s+lot|a\s+bunch|a\s+ton|again|very\s+much|sprout)|thanks?|thank\s+you|thankyou|thx|ty|tysm|gracias|muchas\s+gracias|merci(?:\s+beaucoup)?|danke(?:\s+sch[oö]n)?|obrigad[oa]|grazie|thanks\s+(?:so\s+much|a\s+lot|again|a\s+bunch|a\s+ton|sprout)|thank\s+you\s+(?:so\s+much|very\s+much|again|sprout)|many\s+thanks|much\s+appreciated|appreciate\s+(?:it|that|you)|cheers)$/;
const ACK =
  /^(?:ok(?:ay)?|kk|cool|got\s+it|gotcha|sounds\s+good|will\s+do|great|awesome|perfect|nice|sure|yep|yeah|yup|no|nope|nah|alright|understood|makes\s+sense|good\s+to\s+know|that\s+(?:worked|helped|helps|makes\s+sense)|it\s+worked|you'?re\s+(?:the\s+best|awesome|great)|love\s+it|amazing|wonderful|excellent|good|great\s+tip|good\s+tip|noted|i\s+see|oh\s+ok(?:ay)?|ah\s+ok(?:ay)?|will\s+try(?:\s+that)?|i'?ll\s+try\s+(?:that|it))$/;
const ABOUT =
  /^(?:who\s+(?:are\s+you|is\s+this)|what\s+are\s+you|what\s+(?:can|do)\s+you\s+do|what\s+is\s+(?:sprout|this)|how\s+does\s+(?:this|sprout)\s+work|(?:are|r)\s+(?:you|u)\s+(?:a\s+)?(?:bot|robot|ai|human|person|real|real\s+person)|is\s+this\s+(?:a\s+)?(?:bot|robot|ai|real|a\s+real\s+person)|how\s+do\s+i\s+use\s+(?:this|sprout)|what\s+is\s+your\s+name)$/;
const GOODBYE =
  /^(?:bye|goodbye|bye\s+bye|see\s+ya|see\s+you|later|good\s+night|night|ttyl|talk\s+(?:to\s+you\s+)?later|have\s+a\s+good\s+(?:one|day|night))$/;

function conversationKind(text: string): ConversationKind | null {
  const phrases = text
    .toLowerCase()
    .replace(/[\u2019]/g, "'")
    .replace(/[^\p{L}\p{N}' ,.!?;:]/gu, ' ')
    .split(/[,.!?;:]+/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter((p) => p !== '');
  if (phrases.length === 0) return null;
  let kind: ConversationKind | null = null;
  for (const phrase of phrases) {
    if (THANKS.test(phrase)) kind = 'thanks';
    else if (ABOUT.test(phrase)) kind = 'about';
    else if (GOODBYE.test(phrase)) kind = kind === 'thanks' ? kind : 'goodbye';
    else if (GREETING.test(phrase)) kind = kind ?? 'greeting';
    else if (ACK.test(phrase)) kind = kind ?? 'acknowledgement';
    else return null;
  }
  return kind;
}

// ---------------------------------------------------------------- spam

const URL_RE =
  /\b(?:https?:\/\/\S+|www\.\S+|t\.me\/\S+|bit\.ly\/\S+|[a-z0-9][a-z0-9-]*\.(?:com|net|org|biz|info|xyz|co|io|ly|me|us|club|site|online|top|shop|store|link|click|app|tk|ru|cn|live|win|loan|vip)(?:\/\S*)?)(?=$|[\s,;!?)])/i;
const PROMO_RE =
  /\b(?:free(?!\s+(?:of|from))|win|winner|won\s+(?:a|an|the)\b|prizes?|congratulations|congrats|claim|click|buy\s+now|order\s+now|act\s+now|limited\s+(?:time|offer)|special\s+offer|discount|deals?|sale|\d+\s*%\s*off|cheap|cash|earn|income|make\s+\$|loans?|credit\s+(?:check|score)|crypto|bitcoin|investment|invest|returns\s+guaranteed|guaranteed|singles|dating|casino|betting|viagra|pills|followers|subscribe|promo(?:tion)?|coupon|gift\s*card|selected|reply\s+yes|text\s+[a-z]+\s+to\s+\d+|call\s+now|verify|suspended|your\s+account|your\s+package|delivery\s+failed|shipping|dm\s+me|join\s+now|opportunity|from\s+home|check\s+out\s+my|visit\s+(?:my|our|www)|unsubscribe|giveaways?|follow\s+(?:me|us)|like\s+and\s+share|promo\s+code|sponsored|exclusive|urgent|locked)\b/gi;
const MONEY_RE = /\$\s?\d|\$\$|\b\d+\s?(?:usd|dollars)\b/i;
const SHORTCODE_OR_PHONE =
  /\b(?:1[-.\s]?)?8(?:00|33|44|55|66|77|88)[-.\s]?\d{3}[-.\s]?\d{4}\b|\btext\s+\w+\s+to\s+\d{4,6}\b/i;
const KEYBOARD_MASH = /(?:qwert|asdf|zxcv|hjkl|uiop|sdfg|fghj|ghjk|jkl;|wasd)/i;

interface SpamReading {
  score: number;
  issues: ValidationIssue[];
  /** The message is only noise (repeated characters, keyboard mashing). */
  noise: boolean;
}

function readSpam(text: string): SpamReading {
  const issues: ValidationIssue[] = [];
  let score = 0;
  let noise = false;
  if (URL_RE.test(text)) {
    score += 2;
    issues.push({ type: 'link', severity: 'medium', message: 'Message contains a link.' });
  }
  const promos = new Set((text.match(PROMO_RE) ?? []).map((p) => p.toLowerCase()));
  if (promos.size > 0) {
    score += Math.min(3, promos.size);
    issues.push({
      type: 'promotional',
      severity: promos.size >= 2 ? 'high' : 'low',
      message: `Promotional language: ${[...promos].slice(0, 3).join(', ')}.`,
    });
  }
  if (MONEY_RE.test(text)) score += 1;
  if (SHORTCODE_OR_PHONE.test(text)) score += 1;
  const letters = text.replace(/[^A-Za-z]/g, '');
  if (letters.length >= 10 && letters === letters.toUpperCase() && (MONEY_RE.test(text) || promos.size > 0)) {
    score += 2;
    issues.push({ type: 'shouting', severity: 'medium', message: 'All capitals with money or promotions.' });
  }
  const compact = text.replace(/\s+/g, '');
  const longRun = /(.)\1{7,}/u.test(compact);
  const repeatedUnit = compact.length >= 10 && /^(.{1,4})\1{3,}.{0,3}$/u.test(compact.toLowerCase());
  const mash = compact.length >= 8 && KEYBOARD_MASH.test(compact) && !/\s/.test(text.trim());
  if (longRun || repeatedUnit || mash) {
    noise = true;
    issues.push({
      type: 'repeated_characters',
      severity: 'high',
      message: 'Repeated characters or keyboard mashing.',
    });
  }
  return { score, issues, noise };
}

// ---------------------------------------------------------------- topic

const GARDEN_GENERIC =
  /\b(?:plants?|planting|planted|plantings|garden(?:s|ing|er|ers)?|grow(?:s|ing|n)?|grew|yard|backyard|leaves|leaf|leafs|stems?|stalks?|roots?|buds?|blossoms?|petals?|foliage|vegetables?|veggies?|veg|crops?|fruits?|fruiting|produce|botan\w*|horticult\w*|seedlings?|sprouts?|wilting|wilted|droop\w*|yellowing|dying|potting|zone\s*\d{1,2}[ab]?|hardiness|landscap\w*|flower\s*beds?|vines?|shrubbery|organic|greenhouse|nursery|cultivar|variety|varieties|hoe|trowel|rake|shovel|tiller|pruners|wheelbarrow|gardening\s+gloves|ground\s*covers?|hedges?|slopes?\s+(?:planting|erosion)|erosion)\b/;

const OFF_TOPIC =
  /\b(?:weather|forecast|rain(?:ing)?\s+(?:today|tomorrow|tonight|this\s+weekend|later)|going\s+to\s+rain|temperature\s+(?:today|tomorrow)|game|games|score|scores|team|nfl|nba|mlb|nhl|lakers|yankees|cowboys|super\s*bowl|playoffs|homework|math|algebra|essay|joke|jokes|riddle|capital\s+of|president|vote|voting|election|politic\w*|senator|congress|car|cars|truck|engine|brakes?|tires?|mechanic|wifi|wi-fi|router|computer|laptop|iphone|android|phone\s+(?:plan|bill|screen)|password|printer|recipe|recipes|lasagna|pizza|burger|restaurant|movie|movies|film|netflix|tv|show|shows|music|song|songs|poem|poetry|story|cover\s+letter|resume|job|jobs|boss|salary|taxes|bitcoin|crypto|stocks?|stock\s+market|flight|flights|airline|hotel|vacation|travel|weight|diet|calories|workout|gym|doctor|dentist|name\s+my|faucet|plumb\w*|toilet|bored|boredom|girlfriend|boyfriend|dating|crush|walmart|target|costco|amazon\s+prime|store\s+hours|what\s+time\s+is\s+it|time\s+does|close|closes|open\s+today|translate|spell|meaning\s+of\s+life|horoscope|lottery|news|celebrity|kardashian)\b|\b\d+\s*(?:[+*/x^]|plus|minus|times|divided\s+by)\s*\d+\b|\b\d+\s*%\s*of\s*\d+/;

const FILLER_START = /^(?:(?:ok(?:ay)?|so|and|but|well|hmm+|also|oh|then|wait|sorry|thanks|yes|no)[\s,!.]+)+/;
/** Words that point back to the conversation ("how much should I use?", "and then?"). */
const FOLLOW_UP =
  /\b(?:it|its|it's|that|them|they|those|these|this|one|ones|more|less|else|also|instead|again|then|too|either|first|after|before|now)\b|^(?:and|but|so|or|what\s+about|how\s+about)\b|\bhow\s+(?:much|often|long|many|deep|far|soon|big|tall)\b|^\W*(?:ok\W+|so\W+|but\W+)*(?:why|how|when|where|which|really)\W*$/;
const QUESTION_START =
  /^(?:how|what|when|where|why|which|who|should|can|could|would|will|is|are|do|does|did|any|tips?)\b/;

/** `topics`: the text's topics when already read. */
function hasGardeningSignal(lower: string, text: string, topics?: readonly Topic[]): boolean {
  return (
    (topics ?? detectTopics(lower, 1)).length > 0 ||
    GARDEN_GENERIC.test(lower) ||
    mentionsLatinPlantName(text) ||
    (!OFF_TOPIC.test(lower) && namesKnownPlant(lower))
  );
}

// ---------------------------------------------------------------- validation

function result(
  now: Date,
  responseType: ValidationResponseType,
  isValid: boolean,
  confidence: number,
  issues: ValidationIssue[],
  corrections: string[],
  extra: Partial<ValidationResult> = {},
): ValidationResult {
  return {
    isValid,
    responseType,
    confidence: Math.round(confidence * 100) / 100,
    issues,
    corrections,
    timestamp: now.toISOString(),
    ...extra,
  };
}

function outsideServiceArea(location: LocationDetection): boolean {
  if (location.locationType === 'international') return true;
  const states = serviceArea.states;
  if (!states || !location.hasLocation) return false;
  return location.state !== undefined && !states.includes(location.state);
}

function contextHasLocation(context: ValidationUserContext | undefined): boolean {
  return !!(context?.zip_code?.trim() || context?.region?.trim() || context?.hardiness_zone?.trim());
}

/**
 * Classifies an inbound message: a valid gardening question, or
 * too short, spam (links, promotions, repeated characters, shouting with prices), non-gardening,
 * out of region (a place outside the service area, by default outside the United States), a safety
 * concern (poisoning, chemical exposure, pesticide misuse, self-harm: see `safetyGuidance`) or not
 * English. Small talk ("hi", "thanks") is valid with responseType "conversational"; a bare location
 * or refusal is "location_reply"; profile commands and SMS keywords are "command". Safety comes
 * first: a dangerous message is never classified as anything else. Only the first
 * ANALYSIS_MAX_CHARS characters are read. Takes the text, or its analysis (analyzeText) when the
 * caller has one, so it is not read again.
 */
export function validateMessage(
  text: string | TextAnalysis,
  userContext?: ValidationUserContext,
  now: Date = new Date(),
): ValidationResult {
  const analysis = typeof text === 'string' ? null : text;
  const normalized = analysis?.normalized ?? normalizeText(analysisWindow((text as string | null) ?? ''));
  const lower = normalized.toLowerCase();
  const alnum = normalized.replace(/[^\p{L}\p{N}]/gu, '').length;
  // Chinese, Japanese and Korean texts have few or no spaces: count their characters as words.
  const cjk =
    normalized.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu)?.length ??
    0;
  const words = Math.max(wordCount(normalized), Math.floor(cjk / 2));

  if (normalized === '') {
    return result(
      now,
      'too_short',
      false,
      1,
      [{ type: 'empty', severity: 'high', message: 'Message is empty.' }],
      ['Text a gardening question, like "When should I plant tomatoes?"'],
    );
  }

  const safety = detectSafetyConcern(normalized);
  if (safety) {
    return result(
      now,
      'safety_concern',
      false,
      0.9,
      [{ type: 'safety', severity: 'high', message: safety.description }],
      ['Send the safety guidance; do not give plant advice.'],
      { safetyGuidance: safety.guidance, safetyCategory: safety.category },
    );
  }

  if (isServiceKeyword(normalized) || parseProfileCommand(normalized)) {
    return result(now, 'command', true, 0.95, [], []);
  }

  const conversation = conversationKind(normalized);
  if (conversation && alnum >= 2) {
    return result(now, 'conversational', true, 0.9, [], [], { conversation });
  }

  const garden = hasGardeningSignal(lower, normalized, analysis?.topics);
  const spam = readSpam(normalized);
  if (spam.noise && !(garden && words >= 3)) {
    return result(now, 'spam', false, 0.9, spam.issues, ['Send a gardening question in plain words.']);
  }
  if (spam.score >= 3 || (spam.score >= 2 && !garden)) {
    return result(now, 'spam', false, Math.min(0.97, 0.6 + spam.score * 0.07), spam.issues, [
      'Sprout answers gardening questions; remove links and promotions.',
    ]);
  }

  const location = analysis?.location ?? detectLocation(normalized);
  const topics = garden ? (analysis?.topics ?? detectTopics(lower)) : [];
  const ongoing = (userContext?.conversation ?? []).slice(-CONVERSATION_REACH).some((earlier) => {
    const words = normalizeText(analysisWindow(earlier));
    return hasGardeningSignal(words.toLowerCase(), words);
  });

  if (
    alnum < 2 ||
    (words <= 1 && !location.hasLocation && !location.refusedLocation) ||
    (words === 2 && alnum < 7 && topics.length === 0 && !location.hasLocation && !ongoing)
  ) {
    return result(
      now,
      'too_short',
      false,
      alnum < 2 ? 0.98 : 0.85,
      [
        {
          type: 'too_short',
          severity: 'medium',
          message: `Message is too short to answer (${normalized.length} characters).`,
        },
      ],
      [
        'Add a few words about your plant and what you want to know, like "My tomato leaves are turning yellow."',
      ],
    );
  }

  if (outsideServiceArea(location)) {
    const place = location.location ?? location.country ?? 'that area';
    return result(
      now,
      'out_of_region',
      false,
      Math.max(0.7, location.confidence),
      [{ type: 'out_of_region', severity: 'high', message: `Location outside the service area: ${place}.` }],
      ['Sprout serves gardens in the United States; text a US ZIP code for local advice.'],
      { outOfRegionPlace: place },
    );
  }
  const contextZip = userContext?.zip_code?.trim();
  const contextPlace = contextZip ? lookupZip(contextZip) : null;
  if (serviceArea.states && contextPlace && !serviceArea.states.includes(contextPlace.state)) {
    const place = `${contextPlace.city}, ${contextPlace.state}`;
    return result(
      now,
      'out_of_region',
      false,
      0.8,
      [
        {
          type: 'out_of_region',
          severity: 'high',
          message: `The sender's ZIP is outside the service area: ${place}.`,
        },
      ],
      ['Sprout serves a limited area for now.'],
      { outOfRegionPlace: place },
    );
  }

  const language = readLanguage(normalized);
  if (!language.english) {
    return result(
      now,
      'non_english',
      false,
      language.confidence,
      [
        {
          type: 'non_english',
          severity: 'medium',
          message: `Message appears not to be in English${language.language ? ` (${language.language})` : ''}.`,
        },
      ],
      ['Sprout answers in English for now.'],
      language.language ? { language: language.language } : {},
    );
  }

  const locationOnly =
    (location.hasLocation || location.refusedLocation) &&
    topics.length === 0 &&
    words <= 8 &&
    !QUESTION_START.test(lower);
  if (locationOnly) return result(now, 'location_reply', true, 0.85, [], []);

  if (!garden && ongoing) {
    return result(
      now,
      'gardening_question',
      true,
      0.6,
      [
        {
          type: 'no_gardening_terms',
          severity: 'low',
          message: 'No gardening terms; read as part of the gardening conversation so far.',
        },
      ],
      [],
    );
  }
  if (!garden) {
    const offTopic = OFF_TOPIC.test(lower);
    const question = QUESTION_START.test(lower.replace(FILLER_START, '')) || normalized.endsWith('?');
    const followUp = question && words <= 8 && FOLLOW_UP.test(lower);
    if (offTopic || !followUp) {
      return result(
        now,
        'non_gardening',
        false,
        offTopic ? 0.85 : 0.6,
        [{ type: 'off_topic', severity: 'medium', message: 'Message is not about gardening.' }],
        ['Ask Sprout about plants, lawns or gardens, like "When should I plant garlic?"'],
      );
    }
    // A short question with no topic is most likely a follow-up ("how much should I use?").
    return result(
      now,
      'gardening_question',
      true,
      0.5,
      [
        {
          type: 'no_gardening_terms',
          severity: 'low',
          message: 'No gardening terms; probably a follow-up to the conversation.',
        },
      ],
      [],
    );
  }

  const issues: ValidationIssue[] = [];
  const corrections: string[] = [];
  if (URL_RE.test(normalized))
    issues.push({ type: 'link', severity: 'low', message: 'Message contains a link; it is not opened.' });
  if (!location.hasLocation && !contextHasLocation(userContext)) {
    issues.push({
      type: 'missing_location',
      severity: 'low',
      message: 'No location known; advice will be general.',
    });
    corrections.push('Add your ZIP code (e.g. "ZIP 98101") for advice timed to your frost dates.');
  }
  return result(now, 'gardening_question', true, topics.length > 0 ? 0.92 : 0.75, issues, corrections);
}
