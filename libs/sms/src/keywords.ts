// Carrier compliance keywords (CTIA / Twilio Advanced Opt-Out). A keyword counts only when it is
// the whole message: "STOP!" opts out, "stop the aphids" is a gardening question. Every channel
// that takes a user's text (the SMS webhook, the console's simulator) answers them the same way.
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

/** The text without surrounding spaces and punctuation, upper case: the word a keyword is read from. */
const keywordWordOf = (text: string): string =>
  text
    .normalize('NFKC')
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')
    .toUpperCase();

export function parseComplianceKeyword(text: string): ComplianceKeyword | null {
  return KEYWORDS.get(keywordWordOf(text)) ?? null;
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

/** The keyword a text is and its confirmation, or null when the text is not a keyword. */
export function answerComplianceKeyword(text: string, contactEmail: string): ComplianceAnswer | null {
  const word = keywordWordOf(text);
  const type = KEYWORDS.get(word);
  if (type === undefined) return null;
  const content = complianceConfirmation(type, contactEmail);
  const { encoding, segments } = analyzeSms(content);
  return { type, keyword: word.slice(0, 32), reply: { content, encoding, segments } };
}
