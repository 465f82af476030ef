// Not (yet) in @sprout/contracts (web-public declares the same shape locally).

/** GET /api/public-config: what the public pages show from configuration. */
export interface PublicConfig {
  /** E.164; the /live page's sms: link. */
  phoneNumber: string;
  contactEmail: string;
}
