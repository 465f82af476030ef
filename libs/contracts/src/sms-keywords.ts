// The carriers' SMS keywords: sms-gateway acts on them (libs/sms adds other languages' and the
// garden tips' own), and the advisor leaves a text that is only one of them unanswered.

/** CTIA's opt-out keywords (Twilio's defaults). */
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
