// Carrier compliance keywords (CTIA / Twilio Advanced Opt-Out) and opt-out by intent (FCC,
// 47 CFR 64.1200(a)(10): any reasonable way of saying it). Every channel that takes a user's text
// (the SMS webhook, the console's simulator, the ai-responder's guard) reads them here.
//
// The rule, on the text folded (NFKC, lower case, apostrophes dropped, other punctuation and
// spacing to one space, runs of single letters joined: "S.T.O.P", "s t o p" -> "stop"):
// 1. The whole text is a keyword ("STOP!", "opt-out", "S T O P", "Help?"): opt-out, opt-in or help.
// 2. A short text (at most MAX_INTENT_WORDS words) opts out when
//    a. an opt-out word (stop, unsubscribe, cancel, end, quit, revoke, opt out...) comes with
//       nothing but courtesy and words about our messages ("Stop please", "please cancel",
//       "I want to opt out", "STOP texting me", "end all messages now"), or
//    b. it says so in a phrase aimed at us: a stop word before our messages ("can you stop
//       sending me these texts"), "unsubscribe" / "opt out" / "revoke" anywhere, "remove me",
//       "take me off", "opt me out", "don't text me", "no more texts", "leave me alone".
// A question about plants never qualifies: "how do I stop aphids?", "when should I stop watering
// tomatoes", "cancel my order of seeds?" carry words (aphids, watering, order) that are neither
// courtesy nor about our messages, and their stop word is not aimed at our messages.
import { type SmsEncoding, analyzeSms } from './segments';

export type ComplianceKeyword = 'opt_out' | 'opt_in' | 'help';

export const OPT_OUT_KEYWORDS = [
  'STOP',
  'STOPALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
  'OPTOUT',
  'REVOKE',
] as const;
export const OPT_IN_KEYWORDS = ['START', 'UNSTOP', 'YES'] as const;
export const HELP_KEYWORDS = ['HELP', 'INFO'] as const;

const KEYWORDS = new Map<string, ComplianceKeyword>([
  ...OPT_OUT_KEYWORDS.map((k) => [k, 'opt_out'] as const),
  ...OPT_IN_KEYWORDS.map((k) => [k, 'opt_in'] as const),
  ...HELP_KEYWORDS.map((k) => [k, 'help'] as const),
]);

/** Longest text (in words) read for an opt-out intent; a longer one is a question or a story. */
export const MAX_INTENT_WORDS = 12;

/** Folded words ("opt out" and "opt-out" are one word, optout). */
const OPT_OUT_WORDS = new Set([
  'stop',
  'stopall',
  'unsubscribe',
  'unsub',
  'cancel',
  'end',
  'quit',
  'optout',
  'revoke',
]);

/** Words that may stand beside an opt-out word without changing what it means. */
const COURTESY_WORDS = new Set(
  (
    'please pls plz now right away immediately asap already thanks thank thx ty you u ok okay just ' +
    'hey hi hello no i im me my we us our want wanna would like id to do it all this that these ' +
    'those the a any anymore more of off from for your ur sprout list service subscription ' +
    'subscriptions number texts text texting txt txts message messages messaging msg msgs sms ' +
    'sending send alerts notifications permanently forever completely here them sir and yes'
  ).split(' '),
);

/** A stop word aimed at our messages, "unsubscribe" / "opt out" / "revoke", or a plain request to stop. */
const OPT_OUT_PHRASE = new RegExp(
  [
    // "stop texting me", "can you stop sending me these texts", "end all messages", "cancel my subscription"
    String.raw`\b(?:stop|stopall|end|cancel|quit|halt|cease)(?: (?:all|the|these|those|this|your|ur|my|any|of|with|now|please|pls|me|us|sending|send|receiving|getting))* (?:texts?|texting|txts?|txting|messages?|messaging|msgs?|sms|subscriptions?|alerts?|notifications?|sending|contacting|bothering|spamming|calling|emailing)\b(?! (?:you|u)\b)`,
    String.raw`\b(?:unsubscribe|unsub|optout|revoke)\b`,
    String.raw`\b(?:remove|delete) me\b|\btake me off\b|\bopt (?:me|us) out\b`,
    String.raw`\b(?:dont|do not|never|stop) (?:text|txt|message|msg|contact|sms|send|email|call)(?:ing)? (?:me|us)\b`,
    String.raw`\bno more (?:texts?|txts?|messages?|msgs?|sms)\b`,
    String.raw`\bleave me alone\b`,
  ].join('|'),
);

/**
 * The text folded for keyword reading: NFKC, lower case, apostrophes dropped ("don't" -> "dont"),
 * everything but letters and digits to single spaces, runs of three or more single letters joined
 * ("s t o p" -> "stop") and "opt out" as one word.
 */
const foldWords = (text: string): string =>
  ` ${text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/['\u2019\u02bc`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')} `
    .replace(/ (?:\p{L} ){3,}/gu, (run) => ` ${run.replace(/ /g, '')} `)
    .replace(/ opt out /g, ' optout ')
    .trim();

/** The keyword a folded text is as a whole ("STOP", "OPTOUT"), or undefined. */
const wholeKeywordOf = (folded: string): string | undefined => {
  const word = folded.replace(/ /g, '').toUpperCase();
  return KEYWORDS.has(word) ? word : undefined;
};

/** Whether a short folded text asks to opt out (rule 2 above). */
const asksToOptOut = (folded: string): boolean => {
  const words = folded.split(' ');
  if (words.length > MAX_INTENT_WORDS) return false;
  const onlyCourtesy =
    words.some((w) => OPT_OUT_WORDS.has(w)) &&
    words.every((w) => OPT_OUT_WORDS.has(w) || COURTESY_WORDS.has(w));
  return onlyCourtesy || OPT_OUT_PHRASE.test(folded);
};

interface KeywordReading {
  type: ComplianceKeyword;
  /** As received, for the consent audit trail: the keyword, or the folded phrase (at most 32 chars). */
  keyword: string;
}

const readKeyword = (text: string): KeywordReading | null => {
  const folded = foldWords(text);
  if (folded === '') return null;
  const whole = wholeKeywordOf(folded);
  if (whole !== undefined) return { type: KEYWORDS.get(whole) as ComplianceKeyword, keyword: whole };
  if (asksToOptOut(folded)) return { type: 'opt_out', keyword: folded.toUpperCase().slice(0, 32) };
  return null;
};

/** The compliance keyword a text is, or asks for (opt-out by intent), or null. */
export function parseComplianceKeyword(text: string): ComplianceKeyword | null {
  return readKeyword(text)?.type ?? null;
}

/** The program name carriers expect at the start of compliance answers. */
export const PROGRAM_NAME = 'Sprout';

/** The one confirmation each STOP / START / HELP keyword gets (GSM-7, at most two segments). */
export const complianceConfirmation = (keyword: ComplianceKeyword, contactEmail: string): string => {
  switch (keyword) {
    case 'opt_out':
      return `${PROGRAM_NAME}: You're unsubscribed and will get no more messages from us. Reply START to resubscribe.`;
    case 'opt_in':
      return (
        `${PROGRAM_NAME}: You're subscribed to gardening advice by text. Text a question anytime. ` +
        'Msg frequency varies. Msg & data rates may apply. Reply HELP for help, STOP to opt out.'
      );
    case 'help':
      return (
        `${PROGRAM_NAME}: gardening advice by text for your region and season. Text a question anytime. ` +
        `Reply STOP to opt out, START to opt back in. Msg & data rates may apply. Help: ${contactEmail}`
      );
  }
};

/** A compliance keyword read from a text, with the confirmation it gets. */
export interface ComplianceAnswer {
  type: ComplianceKeyword;
  /** The keyword as received (STOP, UNSUBSCRIBE, START...), for the consent audit trail. */
  keyword: string;
  reply: { content: string; encoding: SmsEncoding; segments: number };
}

/** The keyword a text is (or the opt-out it asks for) and its confirmation, or null. */
export function answerComplianceKeyword(text: string, contactEmail: string): ComplianceAnswer | null {
  const reading = readKeyword(text);
  if (reading === null) return null;
  const content = complianceConfirmation(reading.type, contactEmail);
  const { encoding, segments } = analyzeSms(content);
  return { type: reading.type, keyword: reading.keyword, reply: { content, encoding, segments } };
}
