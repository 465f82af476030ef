import { adviseOffline, ADVICE_MAX_CHARS } from '../advisor/advise-offline';
import { detectLocation, type LocationDetection } from '../location/detect-location';
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

/** A labelled advisor question: acceptable topics and, optionally, a pattern the answer must contain. */
export interface AdvisorCase {
  question: string;
  zipCode?: string;
  zone?: string;
  experienceLevel?: string;
  /** YYYY-MM-DD; default 2025-05-01. */
  now?: string;
  expectedTopics: string[];
  mustMatch?: string;
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

/**
 * Offline advisor: a case is correct when the answer's topic is one of the expected topics, the
 * answer matches `mustMatch` (when given), and it is GSM-7 within 320 characters.
 */
export function evaluateAdvisor(cases: readonly AdvisorCase[]): EvaluationReport {
  return report(
    cases.map((c) => {
      const advice = adviseOffline({
        question: c.question,
        zipCode: c.zipCode ?? null,
        zone: c.zone ?? null,
        experienceLevel: c.experienceLevel ?? null,
        now: new Date(`${c.now ?? DEFAULT_NOW}T12:00:00Z`),
      });
      const topicOk = c.expectedTopics.includes(advice.topic);
      const patternOk = !c.mustMatch || new RegExp(c.mustMatch).test(advice.answer);
      const smsOk = isGsm7(advice.answer) && advice.answer.length <= ADVICE_MAX_CHARS;
      const expected = c.expectedTopics[0] ?? 'general';
      const actual = topicOk
        ? patternOk
          ? smsOk
            ? expected
            : `${advice.topic} (not SMS-safe)`
          : `${advice.topic} (missing ${c.mustMatch})`
        : advice.topic;
      return { input: c.question, expected, actual, correct: topicOk && patternOk && smsOk };
    }),
  );
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
