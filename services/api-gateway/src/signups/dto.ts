// Answer shapes of this capability not (yet) in @sprout/contracts.

/** POST /api/beta-signup when the email is already on the waitlist (200). */
export interface BetaSignupDuplicateResponse {
  success: true;
  message: string;
  alreadyRegistered: true;
}

/** POST /api/admin/beta-signups/{id}/approve */
export interface BetaSignupApproveResponse {
  success: true;
  signup: import('@sprout/contracts').BetaSignupDto;
}
