import { toGsm7 } from '../text/gsm7';
import type { ValidationResult } from './validate-message';

/** Longest template reply, in characters (two GSM-7 segments). */
export const TEMPLATE_REPLY_MAX_CHARS = 320;

const REPLIES = {
  too_short:
    'Could you tell me a bit more? For example: "My tomato leaves are turning yellow" or "When should I plant garlic?"',
  spam: 'Sprout only answers gardening questions. Text me about your plants, like "Why do my squash leaves have white spots?"',
  non_gardening:
    'I\'m Sprout, a gardening advisor, so I can only help with plants, lawns and gardens. Try: "When should I plant garlic?" or "How often should I water tomatoes?"',
  non_english:
    'Sorry, Sprout only answers in English for now. Lo siento, por ahora Sprout solo responde en inglés.',
  greeting:
    "Hi! I'm Sprout, your gardening advisor. Ask me anything about your plants, lawn or garden. Tip: text your ZIP code so I can time advice to your frost dates.",
  thanks: "You're welcome! Happy gardening, and text me anytime.",
  acknowledgement: 'Great! Text me anytime you have a garden question.',
  goodbye: 'Bye for now, and happy gardening!',
  about:
    "I'm Sprout, an AI gardening advisor you can text. Ask about planting times, pests, watering, lawns or houseplants, and I'll answer for your area. Text your ZIP code for local timing.",
} as const;

/**
 * The short SMS the pipeline sends, without a model call, for a message that needs no model: each
 * invalid kind (too short, spam, non-gardening, out of region, safety concern with its Poison
 * Control guidance, non-English) and small talk ("hi", "thanks"). Null for gardening questions,
 * location replies and commands, which the pipeline answers itself. GSM-7 only, at most 320
 * characters.
 */
export function templateReplyFor(result: ValidationResult): string | null {
  let reply: string | null;
  switch (result.responseType) {
    case 'gardening_question':
    case 'location_reply':
    case 'command':
      reply = null;
      break;
    case 'conversational':
      reply = REPLIES[result.conversation ?? 'greeting'];
      break;
    case 'too_short':
      reply = REPLIES.too_short;
      break;
    case 'spam':
      reply = REPLIES.spam;
      break;
    case 'non_gardening':
      reply = REPLIES.non_gardening;
      break;
    case 'non_english':
      reply = REPLIES.non_english;
      break;
    case 'out_of_region': {
      const place = result.outOfRegionPlace ? ` for ${result.outOfRegionPlace}` : '';
      reply = `Sorry, Sprout's advice is built for US gardens (USDA zones and US frost dates), so I can't give reliable local advice${place}. If you garden in the US, text your ZIP code.`;
      break;
    }
    case 'safety_concern':
      reply =
        result.safetyGuidance ??
        'If someone may be poisoned, call Poison Control at 1-800-222-1222 now, or 911 in an emergency.';
      break;
  }
  if (reply === null) return null;
  const gsm = toGsm7(reply);
  return gsm.length <= TEMPLATE_REPLY_MAX_CHARS
    ? gsm
    : `${gsm.slice(0, TEMPLATE_REPLY_MAX_CHARS - 3).replace(/\s+\S*$/, '')}...`;
}
