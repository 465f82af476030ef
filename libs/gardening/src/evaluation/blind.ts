import { adviseOffline } from '../advisor/advise-offline';
import { advisorRegionOf } from '../advisor/context';
import { regionForState } from '../places/states';
import { lookupZip } from '../places/zip';
import { templateReplyFor } from '../validation/templates';
import { validateMessage } from '../validation/validate-message';

/**
 * A question of a blind set, written by a horticulturist who never saw the advisor. The answer is
 * right when every `expect` group has at least one alternative in it (case-insensitive substring)
 * and no `avoid` term occurs.
 */
export interface BlindItem {
  id: string;
  category: string;
  state?: string;
  zipCode?: string;
  /** YYYY-MM-DD (or a full ISO time). */
  now?: string;
  history?: ReadonlyArray<{ role: 'user' | 'advisor'; text: string }>;
  question: string;
  expect: ReadonlyArray<readonly string[]>;
  avoid?: readonly string[];
  /** The right answer in prose, for people. */
  answer?: string;
}

/** What the system replied: its text, and whether it said it was asking rather than answering. */
export interface BlindReply {
  text: string;
  abstained: boolean;
}

/** Right answer, an explicit clarifying question (abstained), or anything else (wrong-topic). */
export type BlindOutcome = 'right' | 'abstained' | 'wrong-topic';

export interface BlindLine {
  kind: string;
  total: number;
  right: number;
  abstained: number;
  wrongTopic: number;
}

export interface BlindReport extends BlindLine {
  byCategory: BlindLine[];
  byRegion: BlindLine[];
  /** Per item: only for sets one may read (never print a holdout's). */
  items: Array<{ id: string; category: string; region: string; outcome: BlindOutcome; reply: string }>;
}

export type BlindAdvisor = (item: BlindItem) => BlindReply;

/** The outcome of one reply: an abstention counts as such even when it happens to name the answer. */
export function blindOutcome(item: BlindItem, reply: BlindReply): BlindOutcome {
  if (reply.abstained) return 'abstained';
  const text = reply.text.toLowerCase();
  const has = (s: string): boolean => text.includes(s.toLowerCase());
  const right = item.expect.every((group) => group.some(has)) && !(item.avoid ?? []).some(has);
  return right ? 'right' : 'wrong-topic';
}

/** The region an item is reported under: the product's ZIP lookup, else the item's state. */
export function blindRegion(item: Pick<BlindItem, 'zipCode' | 'state'>): string {
  const state = (item.zipCode ? lookupZip(item.zipCode)?.state : null) ?? item.state ?? null;
  return (state ? (advisorRegionOf(state, null) ?? regionForState(state)) : null) ?? 'no location';
}

/** The date an item is asked on (noon UTC of a bare date). */
export function blindDate(item: Pick<BlindItem, 'now'>): Date {
  if (!item.now) return new Date('2025-05-01T12:00:00Z');
  return new Date(/^\d{4}-\d{2}-\d{2}$/.test(item.now) ? `${item.now}T12:00:00Z` : item.now);
}

/**
 * What the product sends for an item without a model: the validator first (with the gardener's
 * earlier messages, as the pipeline passes them), its template reply when it has one (a refusal
 * is an answer, and a wrong one), else the offline advisor with the conversation so far.
 */
export const productReply: BlindAdvisor = (item) => {
  const now = blindDate(item);
  const history = item.history ?? [];
  const validation = validateMessage(
    item.question,
    {
      zip_code: item.zipCode ?? null,
      conversation: history.filter((t) => t.role === 'user').map((t) => t.text),
    },
    now,
  );
  const template = templateReplyFor(validation);
  if (template !== null) return { text: template, abstained: false };
  const advice = adviseOffline({
    question: item.question,
    zipCode: item.zipCode ?? null,
    region: item.zipCode ? null : (item.state ?? null),
    now,
    history: history.map((t) => ({ role: t.role === 'advisor' ? 'assistant' : 'user', content: t.text })),
  });
  // An advisor without an explicit kind (older builds) abstained when no entry matched.
  const kind = (advice as { kind?: string }).kind;
  return { text: advice.answer, abstained: kind !== undefined ? kind === 'clarify' : !advice.matched };
};

const line = (kind: string): BlindLine => ({ kind, total: 0, right: 0, abstained: 0, wrongTopic: 0 });

function count(target: BlindLine, outcome: BlindOutcome): void {
  target.total++;
  if (outcome === 'right') target.right++;
  else if (outcome === 'abstained') target.abstained++;
  else target.wrongTopic++;
}

/** Scores an advisor on a blind set: right / abstained / wrong-topic overall, per category and per region. */
export function scoreBlindSet(
  items: readonly BlindItem[],
  advisor: BlindAdvisor = productReply,
): BlindReport {
  const overall = line('all');
  const categories = new Map<string, BlindLine>();
  const regions = new Map<string, BlindLine>();
  const rows: BlindReport['items'] = [];
  for (const item of items) {
    const reply = advisor(item);
    const outcome = blindOutcome(item, reply);
    const region = blindRegion(item);
    count(overall, outcome);
    const byCategory = categories.get(item.category) ?? line(item.category);
    count(byCategory, outcome);
    categories.set(item.category, byCategory);
    const byRegion = regions.get(region) ?? line(region);
    count(byRegion, outcome);
    regions.set(region, byRegion);
    rows.push({ id: item.id, category: item.category, region, outcome, reply: reply.text });
  }
  const sorted = (m: Map<string, BlindLine>): BlindLine[] =>
    [...m.values()].sort((a, b) => a.kind.localeCompare(b.kind));
  return { ...overall, byCategory: sorted(categories), byRegion: sorted(regions), items: rows };
}

/** "right 102/120 (85.0%), abstained 12 (10.0%), wrong-topic 6 (5.0%)" */
export function formatBlindLine(l: BlindLine): string {
  const pct = (n: number): string => `${l.total ? ((n / l.total) * 100).toFixed(1) : '0.0'}%`;
  return `right ${l.right}/${l.total} (${pct(l.right)}), abstained ${l.abstained} (${pct(l.abstained)}), wrong-topic ${l.wrongTopic} (${pct(l.wrongTopic)})`;
}
