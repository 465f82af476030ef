import type { SentimentLabel } from '@sprout/contracts';

// Engagement levels and sentiment labels.

export const ENGAGEMENT_MEDIUM_FROM = 5;
export const ENGAGEMENT_HIGH_FROM = 20;

export type EngagementLevel = 'Low' | 'Medium' | 'High';

/** High at 20 or more messages, Medium at 5 to 19, Low under 5. */
export function engagementLevel(totalMessages: number): EngagementLevel {
  if (totalMessages >= ENGAGEMENT_HIGH_FROM) return 'High';
  if (totalMessages >= ENGAGEMENT_MEDIUM_FROM) return 'Medium';
  return 'Low';
}

/** The four sentiment labels (the server sorts them negative, frustrated, neutral, positive). */
const SENTIMENT_LABELS: readonly SentimentLabel[] = ['negative', 'frustrated', 'neutral', 'positive'];

/** A sentiment as shown: any label other than the four known ones (or none) counts as neutral. */
export function sentimentLabel(value: string | null | undefined): SentimentLabel {
  const known = SENTIMENT_LABELS.find((label) => label === value?.trim().toLowerCase());
  return known ?? 'neutral';
}

/** Badge style of a sentiment: good news green, bad news red, the rest quiet. */
export function sentimentBadgeVariant(
  value: string | null | undefined,
): 'default' | 'secondary' | 'destructive' {
  const label = sentimentLabel(value);
  if (label === 'positive') return 'default';
  if (label === 'negative' || label === 'frustrated') return 'destructive';
  return 'secondary';
}
