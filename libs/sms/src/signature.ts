import twilio from 'twilio';

export interface TwilioSignatureCheck {
  authToken: string;
  /** The full public URL Twilio called (scheme, host, path and query), as configured in Twilio. */
  url: string;
  /** The form-encoded POST parameters, as received. */
  params: Record<string, string | string[] | undefined>;
  /** The X-Twilio-Signature header value. */
  signature: string | string[] | undefined;
}

/** Checks X-Twilio-Signature with twilio's own algorithm (HMAC-SHA1 over URL + sorted params). */
export function validateTwilioSignature({
  authToken,
  url,
  params,
  signature,
}: TwilioSignatureCheck): boolean {
  const header = Array.isArray(signature) ? signature[0] : signature;
  if (!header || !authToken) return false;
  const clean: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) clean[key] = value;
  }
  return twilio.validateRequest(authToken, header, url, clean);
}
