// Where a gardener is: the region the server knows for them (recorded, or their ZIP's), and only
// without one a guess from a fixed table of Pacific Northwest ZIPs and area codes,
// anything else being 'Pacific Northwest'. In the table a ZIP says more than a phone number, so it
// is read first.

export const DEFAULT_LOCATION = 'Pacific Northwest';

/** Three-digit ZIP prefixes (USPS sectional centers) of Oregon, Washington and Idaho. */
const ZIP_PREFIXES: Readonly<Record<string, string>> = {
  '832': 'Pocatello, ID',
  '833': 'Twin Falls, ID',
  '834': 'Idaho Falls, ID',
  '835': 'Lewiston, ID',
  '836': 'Boise, ID',
  '837': 'Boise, ID',
  '838': "Coeur d'Alene, ID",
  '970': 'Portland, OR',
  '971': 'Portland, OR',
  '972': 'Portland, OR',
  '973': 'Salem, OR',
  '974': 'Eugene, OR',
  '975': 'Medford, OR',
  '976': 'Klamath Falls, OR',
  '977': 'Bend, OR',
  '978': 'Pendleton, OR',
  '979': 'Eastern Oregon',
  '980': 'Seattle, WA',
  '981': 'Seattle, WA',
  '982': 'Everett, WA',
  '983': 'Tacoma, WA',
  '984': 'Tacoma, WA',
  '985': 'Olympia, WA',
  '986': 'Vancouver, WA',
  '988': 'Wenatchee, WA',
  '989': 'Yakima, WA',
  '990': 'Spokane, WA',
  '991': 'Spokane, WA',
  '992': 'Spokane, WA',
  '993': 'Tri-Cities, WA',
  '994': 'Clarkston, WA',
};

/** Area codes of Oregon, Washington and Idaho. */
const AREA_CODES: Readonly<Record<string, string>> = {
  '206': 'Seattle, WA',
  '253': 'Tacoma, WA',
  '360': 'Western Washington',
  '425': 'Bellevue, WA',
  '509': 'Eastern Washington',
  '564': 'Western Washington',
  '503': 'Portland, OR',
  '971': 'Portland, OR',
  '541': 'Southern Oregon',
  '458': 'Southern Oregon',
  '208': 'Idaho',
  '986': 'Idaho',
};

/** The location guess for a phone number (E.164) and an optional ZIP. */
export function guessLocation(phoneNumber: string, zipCode: string | null | undefined): string {
  const zip = zipCode?.trim().slice(0, 3);
  if (zip !== undefined && ZIP_PREFIXES[zip] !== undefined) return ZIP_PREFIXES[zip];
  const digits = phoneNumber.replace(/\D/g, '');
  const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  return AREA_CODES[national.slice(0, 3)] ?? DEFAULT_LOCATION;
}

/** The Recent Activity location: the user's known region, else the fixed table's guess. */
export function locationOf(user: {
  phoneNumber: string;
  zipCode: string | null;
  region: string | null;
}): string {
  return user.region ?? guessLocation(user.phoneNumber, user.zipCode);
}
