import type { InboundConsent } from '@sprout/domain';

// Keyword events with the confirmation each sends, as recordInbound takes them.

export const STOP: InboundConsent = {
  type: 'opt_out',
  keyword: 'STOP',
  reply: { content: "Sprout: You're unsubscribed.", encoding: 'GSM-7', segments: 1 },
};

export const START: InboundConsent = {
  type: 'opt_in',
  keyword: 'START',
  reply: { content: "Sprout: You're subscribed.", encoding: 'GSM-7', segments: 1 },
};

export const HELP: InboundConsent = {
  type: 'help',
  keyword: 'HELP',
  reply: { content: 'Sprout: gardening advice by text.', encoding: 'GSM-7', segments: 1 },
};
