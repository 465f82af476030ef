import { findCrop } from '../advisor/crops';
import { calendarTipsFor } from './calendar-tips';

/** Where a user stands with tips (users.tips_status). */
export type TipsStatus = 'none' | 'offered' | 'subscribed' | 'declined' | 'unsubscribed';

export interface TipsOfferInput {
  tipsStatus: TipsStatus;
  optedOut: boolean;
  zipCode: string | null;
  /** The gardener's text and the reply to it: a crop named in either may be offered. */
  inboundText: string;
  replyText: string;
  now: Date;
}

/** How far ahead a crop's next task makes an offer about it worth making. */
const OFFER_HORIZON_DAYS = 120;

const TASK_PHRASES: Readonly<Record<string, string>> = {
  'start-indoors': 'start your {crop} indoors',
  'harden-off': 'harden off your {crop}',
  transplant: 'plant out your {crop}',
  sow: 'sow your {crop}',
  plant: 'plant your {crop}',
  'sow-fall': 'sow your fall {crop}',
  'plant-fall': 'plant your fall {crop}',
  'plant-garlic': 'plant your garlic',
  'plant-bulbs': 'plant your bulbs',
};

/**
 * The one-time offer of tips to append to a reply ("Want a text when it's time to start your
 * tomatoes indoors? Reply TIPS"), or null. Made only to a user who was never offered, never said
 * no and is not opted out, whose ZIP is known, and whose conversation names a crop with a task
 * in the coming months, so the offer is about something they care about.
 */
export function tipsOfferFor(input: TipsOfferInput): string | null {
  if (input.tipsStatus !== 'none' || input.optedOut || input.zipCode === null) return null;
  const crop = findCrop(input.inboundText) ?? findCrop(input.replyText);
  if (crop === null) return null;
  const until = new Date(input.now.getTime() + OFFER_HORIZON_DAYS * 86_400_000);
  const next = calendarTipsFor({ zipCode: input.zipCode, crops: [crop.name], from: input.now, until })[0];
  if (next === undefined) return null;
  const phrase = (TASK_PHRASES[next.task] ?? 'plant your {crop}').replace('{crop}', crop.name);
  return `Want a text when it's time to ${phrase}? Reply TIPS`;
}
