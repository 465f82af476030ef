// Answer shapes of the public site: from @sprout/contracts, plus the ones it does not carry yet.
import type { BetaSignupResponse as BetaSignupCreated } from '@sprout/contracts';

export type { BetaSignupRequest } from '@sprout/contracts';

/** GET /api/public-config (not in @sprout/contracts yet). */
export interface PublicConfig {
  phoneNumber: string;
  contactEmail: string;
}

/** POST /api/beta-signup when the email is already on the waitlist (200; not in @sprout/contracts yet). */
interface BetaSignupDuplicate {
  success: true;
  message: string;
  alreadyRegistered: true;
}

/** POST /api/beta-signup answer: a new signup (201) or the duplicate notice (200). */
export type BetaSignupResponse = BetaSignupCreated | BetaSignupDuplicate;
