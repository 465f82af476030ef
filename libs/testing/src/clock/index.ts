const DAY_MS = 24 * 60 * 60 * 1000;

/** Milliseconds from `now` to the next midnight UTC. */
const msToUtcMidnight = (now: number = Date.now()): number => DAY_MS - (now % DAY_MS);

/**
 * For tests whose fixtures say "today" and "yesterday" (UTC days, as the product counts them):
 * when the UTC day ends within `marginMs`, waits until just after midnight, so the day cannot change
 * between seeding and the last assertion. Answers the time to build fixtures from. Waits at most
 * `marginMs`, and only in that window before midnight.
 */
export const clearOfUtcMidnight = async (marginMs: number): Promise<Date> => {
  const left = msToUtcMidnight();
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 1_000));
  return new Date();
};
