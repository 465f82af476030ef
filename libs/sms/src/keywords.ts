// Carrier compliance keywords (CTIA / Twilio Advanced Opt-Out). A keyword counts only when it is
// the whole message: "STOP!" opts out, "stop the aphids" is a gardening question.

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

export function parseComplianceKeyword(text: string): ComplianceKeyword | null {
  const word = text
    .normalize('NFKC')
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')
    .toUpperCase();
  return KEYWORDS.get(word) ?? null;
}
