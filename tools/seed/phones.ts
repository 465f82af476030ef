// Every number the seeds write is fictional: NXX-555-0100 to NXX-555-0199 are reserved for fiction
// in every area code, so no seeded number can reach a person.

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
