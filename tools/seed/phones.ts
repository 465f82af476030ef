// Every number the seeds, the drills and the benchmarks write is one no phone can have, so nothing
// they hold can ever text a person:
//
// - fictional: NXX-555-0100 to NXX-555-0199, the lines the North American Numbering Plan reserves
//   for fiction in every area code. A real area code of the user's ZIP, so a demo gardener looks
//   like one from there; but only 100 numbers per area code (the demo seed, the drills).
// - unassigned: +1, then an area code the plan never gives to anyone, then any 7 digits. NANPA keeps
//   37X and 96X back for expanding the plan itself, so +1 370..379 and +1 960..969 reach no phone;
//   20 codes of 8,000,000 numbers (exchange 200..999), for the benchmarks' millions of users. (N11
//   codes are no area codes either, but they are service codes, 911 among them.)
//
// The pipeline benchmark sends replies to its numbers, and only ever to the fake Twilio on loopback
// (tools/bench/sms-guard.ts refuses anything else).

/** The fictional number of a line (0100..0199) in an area code, in E.164. */
export const fictionalPhone = (areaCode: string, line: number): string =>
  `+1${areaCode}5550${String(line).padStart(3, '0')}`;

/** E.164 numbers reserved for fiction: +1, an area code, 555, 0100 to 0199. */
export const FICTIONAL_PHONE_PATTERN = /^\+1[2-9]\d{2}55501\d{2}$/;

/** Fictional numbers per area code. */
const LINES_PER_AREA = 100;

/**
 * The `index`-th fictional number of a block of area codes starting at `firstAreaCode`: 100 per
 * area code, so a block of `areas` codes holds 100 x `areas` numbers and blocks do not overlap.
 */
export function fictionalPhoneAt(index: number, firstAreaCode: number, areas = 1): string {
  if (!Number.isInteger(index) || index < 0 || index >= areas * LINES_PER_AREA) {
    throw new RangeError(`fictional phone ${index} is outside its block of ${areas * LINES_PER_AREA}`);
  }
  const areaCode = firstAreaCode + Math.floor(index / LINES_PER_AREA);
  if (areaCode > 999) throw new RangeError(`area code ${areaCode} does not exist`);
  return fictionalPhone(String(areaCode), 100 + (index % LINES_PER_AREA));
}

/** The area codes NANPA holds back from assignment (37X, 96X): no phone has one. */
export const UNASSIGNED_AREA_CODES: readonly string[] = [370, 960].flatMap((first) =>
  Array.from({ length: 10 }, (_, i) => String(first + i)),
);

/** E.164 numbers under an unassigned area code, with an exchange of 200..999. */
export const UNASSIGNED_PHONE_PATTERN = /^\+1(?:37|96)\d[2-9]\d{6}$/;

/** Numbers per unassigned area code: exchanges 200..999, lines 0000..9999. */
const NUMBERS_PER_UNASSIGNED_AREA = 8_000_000;

/** How many distinct unassigned numbers `unassignedPhoneAt` gives (160 million). */
export const UNASSIGNED_PHONE_CAPACITY = UNASSIGNED_AREA_CODES.length * NUMBERS_PER_UNASSIGNED_AREA;

// Number `index`: area code index % 20, then 2,000,000 + (index / 20) x 7919 mod 8,000,000 as the
// 7 digits. 7919 is prime to 8,000,000, so the digits of one area code never repeat; and
// neighbouring indexes land far apart, as real numbers of neighbouring sign-ups would.
const STEP = 7919;

/** The `index`-th unassigned number (0 <= index < UNASSIGNED_PHONE_CAPACITY), none twice. */
export function unassignedPhoneAt(index: number): string {
  if (!Number.isInteger(index) || index < 0 || index >= UNASSIGNED_PHONE_CAPACITY) {
    throw new RangeError(`unassigned phone ${index} is outside 0..${UNASSIGNED_PHONE_CAPACITY - 1}`);
  }
  const areas = UNASSIGNED_AREA_CODES.length;
  const digits = 2_000_000 + ((Math.floor(index / areas) * STEP) % NUMBERS_PER_UNASSIGNED_AREA);
  return `+1${UNASSIGNED_AREA_CODES[index % areas]}${digits}`;
}

/**
 * `unassignedPhoneAt` as SQL, of a bigint expression (the bulk seeds make their rows in Postgres):
 * the same number for the same index.
 */
export const unassignedPhoneSql = (index: string): string => {
  const areas = UNASSIGNED_AREA_CODES.length;
  const codes = `ARRAY[${UNASSIGNED_AREA_CODES.map((code) => `'${code}'`).join(', ')}]`;
  return `('+1' || (${codes})[1 + ((${index}) % ${areas})::int]
    || (2000000 + (((${index}) / ${areas}) * ${STEP}) % ${NUMBERS_PER_UNASSIGNED_AREA})::text)`;
};
