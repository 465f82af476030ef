import { adviseOffline, ADVICE_MAX_CHARS } from '../advisor/advise-offline';
import { advisorRegionOf } from '../advisor/context';
import { advisorKnowledge } from '../advisor/knowledge/load';
import { plantsNotHardy } from '../advisor/plants';
import { detectLocation, type LocationDetection } from '../location/detect-location';
import { normalizeZone } from '../places/frost';
import { hardinessZoneForZip } from '../places/hardiness';
import { lookupZip } from '../places/zip';
import { isGsm7 } from '../text/gsm7';
import { validateMessage, type ValidationUserContext } from '../validation/validate-message';

/** A labelled location message: the fields the detection must match exactly. */
export interface LocationCase {
  text: string;
  expect: Partial<
    Pick<
      LocationDetection,
      'hasLocation' | 'locationType' | 'zipCode' | 'city' | 'state' | 'region' | 'country' | 'refusedLocation'
    >
  >;
}

/** A labelled validation message: the responseType expected. */
export interface ValidationCase {
  text: string;
  kind: string;
  userContext?: ValidationUserContext;
}

/**
 * A labelled advisor question: acceptable topics and, optionally, patterns the answer must and
 * must not contain (the zone-correct facts: dates from the frost dates, grasses for the region).
 */
export interface AdvisorCase {
  question: string;
  zipCode?: string;
  zone?: string;
  region?: string;
  experienceLevel?: string;
  soilType?: string;
  /** YYYY-MM-DD; default 2025-05-01. */
  now?: string;
  /** The gardener's earlier messages in the conversation, oldest first (for follow-ups). */
  history?: string[];
  expectedTopics: string[];
  mustMatch?: string;
  mustNotMatch?: string;
}

/** Accuracy for one expected kind. */
export interface KindAccuracy {
  kind: string;
  total: number;
  correct: number;
  accuracy: number;
}

/** One case the system got wrong. */
export interface EvaluationFailure {
  input: string;
  expected: string;
  actual: string;
}

/** Results of the advisor set: accuracy by expected topic (byKind), by region, and SMS length. */
export interface AdvisorEvaluationReport extends EvaluationReport {
  byRegion: KindAccuracy[];
  /** Answers that fit two GSM-7 segments (306 septets), of all answers. */
  twoSegments: { total: number; within: number; share: number };
}

/** Results of one labelled set. */
export interface EvaluationReport {
  total: number;
  correct: number;
  accuracy: number;
  byKind: KindAccuracy[];
  /** expected kind -> actual kind -> count */
  confusion: Record<string, Record<string, number>>;
  failures: EvaluationFailure[];
}

const DEFAULT_NOW = '2025-05-01';

function report(
  rows: Array<{ input: string; expected: string; actual: string; correct: boolean }>,
): EvaluationReport {
  const byKind = new Map<string, KindAccuracy>();
  const confusion: Record<string, Record<string, number>> = {};
  for (const row of rows) {
    const kind = byKind.get(row.expected) ?? { kind: row.expected, total: 0, correct: 0, accuracy: 0 };
    kind.total++;
    if (row.correct) kind.correct++;
    byKind.set(row.expected, kind);
    const line = (confusion[row.expected] ??= {});
    line[row.actual] = (line[row.actual] ?? 0) + 1;
  }
  for (const kind of byKind.values()) kind.accuracy = kind.total ? kind.correct / kind.total : 0;
  const correct = rows.filter((r) => r.correct).length;
  return {
    total: rows.length,
    correct,
    accuracy: rows.length ? correct / rows.length : 0,
    byKind: [...byKind.values()],
    confusion,
    failures: rows
      .filter((r) => !r.correct)
      .map(({ input, expected, actual }) => ({ input, expected, actual })),
  };
}

/** Location detection: a case is correct when every expected field matches exactly. */
export function evaluateLocation(cases: readonly LocationCase[]): EvaluationReport {
  return report(
    cases.map((c) => {
      const result = detectLocation(c.text);
      const expected = c.expect as Record<string, unknown>;
      const actual = result as unknown as Record<string, unknown>;
      const mismatched = Object.keys(expected).filter((k) => actual[k] !== expected[k]);
      const detail = mismatched.map((k) => `${k}=${String(actual[k])}`).join(' ');
      return {
        input: c.text,
        expected: c.expect.locationType ?? 'none',
        actual:
          mismatched.length === 0
            ? result.locationType
            : `${result.locationType}${detail ? ` (${detail})` : ''}`,
        correct: mismatched.length === 0,
      };
    }),
  );
}

/** Message validation: a case is correct when the responseType is the labelled kind. */
export function evaluateValidation(
  cases: readonly ValidationCase[],
  now: Date = new Date(`${DEFAULT_NOW}T12:00:00Z`),
): EvaluationReport {
  return report(
    cases.map((c) => {
      const result = validateMessage(c.text, c.userContext, now);
      return {
        input: c.text,
        expected: c.kind,
        actual: result.responseType,
        correct: result.responseType === c.kind,
      };
    }),
  );
}

/** GSM-7 segments of a text (extension-table characters take two septets). */
export function gsm7Segments(text: string): number {
  let septets = 0;
  for (const ch of text) septets += '^{}\\[~]|\u20ac\f'.includes(ch) ? 2 : 1;
  return septets <= 160 ? 1 : Math.ceil(septets / 153);
}

/** The region a case is scored under: its ZIP's region, the region given, or how little is known. */
export function caseRegion(c: Pick<AdvisorCase, 'zipCode' | 'zone' | 'region'>): string {
  const state = c.zipCode ? (lookupZip(c.zipCode)?.state ?? null) : null;
  const region = advisorRegionOf(state, c.region ?? null);
  if (region) return region;
  return c.zone ? 'zone only' : 'no location';
}

/**
 * Offline advisor: a case is correct when the answer's topic is one of the expected topics, it
 * matches `mustMatch` and not `mustNotMatch` (when given), names no plant outside its hardiness
 * range in the case's zone, and is GSM-7 within the advisor's longest answer.
 */
export function evaluateAdvisor(cases: readonly AdvisorCase[]): AdvisorEvaluationReport {
  const knowledge = advisorKnowledge();
  const regions = new Map<string, KindAccuracy>();
  let within = 0;
  const rows = cases.map((c) => {
    const advice = adviseOffline({
      question: c.question,
      zipCode: c.zipCode ?? null,
      zone: c.zone ?? null,
      region: c.region ?? null,
      experienceLevel: c.experienceLevel ?? null,
      soilType: c.soilType ?? null,
      now: new Date(`${c.now ?? DEFAULT_NOW}T12:00:00Z`),
      history: (c.history ?? []).map((content) => ({ role: 'user', content })),
    });
    const zone =
      (c.zone ? normalizeZone(c.zone) : null) ??
      (c.zipCode ? (hardinessZoneForZip(c.zipCode)?.zone ?? null) : null);
    const notHardy = plantsNotHardy(advice.answer, zone ? parseInt(zone, 10) : null, {
      question: advice.question,
      exempt: knowledge.byId.get(advice.entryId.split(':')[0] ?? '')?.about,
    });
    const topicOk = c.expectedTopics.includes(advice.topic);
    const patternOk =
      (!c.mustMatch || new RegExp(c.mustMatch).test(advice.answer)) &&
      (!c.mustNotMatch || !new RegExp(c.mustNotMatch).test(advice.answer));
    const smsOk = isGsm7(advice.answer) && advice.answer.length <= ADVICE_MAX_CHARS;
    if (gsm7Segments(advice.answer) <= 2) within++;
    const expected = c.expectedTopics[0] ?? 'general';
    const actual = !topicOk
      ? advice.topic
      : !patternOk
        ? `${advice.topic} (wrong facts: ${advice.answer.slice(0, 80)}...)`
        : notHardy.length > 0
          ? `${advice.topic} (not hardy in zone ${zone}: ${notHardy.map((p) => p.name).join(', ')})`
          : !smsOk
            ? `${advice.topic} (not SMS-safe)`
            : expected;
    const correct = topicOk && patternOk && smsOk && notHardy.length === 0;
    const region = caseRegion(c);
    const line = regions.get(region) ?? { kind: region, total: 0, correct: 0, accuracy: 0 };
    line.total++;
    if (correct) line.correct++;
    regions.set(region, line);
    const input = c.history?.length ? `${c.history.join(' / ')} / ${c.question}` : c.question;
    return { input, expected, actual, correct };
  });
  for (const line of regions.values()) line.accuracy = line.total ? line.correct / line.total : 0;
  return {
    ...report(rows),
    byRegion: [...regions.values()],
    twoSegments: { total: rows.length, within, share: rows.length ? within / rows.length : 0 },
  };
}

/** A plain-text confusion table (rows: expected, columns: actual). */
export function formatConfusionTable(evaluation: EvaluationReport): string {
  const expectedKinds = Object.keys(evaluation.confusion).sort();
  const actualKinds = [...new Set(expectedKinds.flatMap((k) => Object.keys(evaluation.confusion[k] ?? {})))]
    .map((k) => k.replace(/ \(.*$/, ''))
    .filter((k, i, all) => all.indexOf(k) === i)
    .sort();
  const width = Math.max(14, ...expectedKinds.map((k) => k.length)) + 2;
  const col = (s: string): string => s.slice(0, 13).padStart(14);
  const lines = [`${'expected \\ got'.padEnd(width)}${actualKinds.map(col).join('')}`];
  for (const expected of expectedKinds) {
    const row = evaluation.confusion[expected] ?? {};
    const counts = actualKinds.map((actual) => {
      const n = Object.entries(row)
        .filter(([k]) => k.replace(/ \(.*$/, '') === actual)
        .reduce((sum, [, v]) => sum + v, 0);
      return col(n ? String(n) : '.');
    });
    lines.push(`${expected.padEnd(width)}${counts.join('')}`);
  }
  return lines.join('\n');
}
