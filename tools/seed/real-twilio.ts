import { SANDBOX_ACCOUNT_SID } from './seed-demo';

/** Set to 1 to seed demo data although real Twilio credentials are configured. */
export const SEED_WITH_REAL_TWILIO_FLAG = 'SEED_DEMO_WITH_REAL_TWILIO';

type Env = Readonly<Record<string, string | undefined>>;

const set = (value: string | undefined): boolean => (value ?? '').trim() !== '';

/**
 * Whether texts would go to the real Twilio API: an account SID and auth token are both set
 * (without them `npm start` runs the SMS sandbox), the SID is not the sandbox's, and no
 * TWILIO_API_BASE_URL sends the SDK to a fake Twilio instead (docker compose's sandbox).
 */
export function usesRealTwilio(env: Env): boolean {
  const sid = (env.TWILIO_ACCOUNT_SID ?? '').trim();
  return (
    set(sid) && set(env.TWILIO_AUTH_TOKEN) && sid !== SANDBOX_ACCOUNT_SID && !set(env.TWILIO_API_BASE_URL)
  );
}

/**
 * Why the demo seed must not run here, or null when it may: demo users are fictional, but with
 * real credentials they would sit among real gardeners, and any message to them would go
 * through a real account.
 */
export function realTwilioRefusal(env: Env): string | null {
  if (!usesRealTwilio(env)) return null;
  if (['1', 'true', 'yes'].includes((env[SEED_WITH_REAL_TWILIO_FLAG] ?? '').trim().toLowerCase()))
    return null;
  return (
    'real Twilio credentials are configured (TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN, not the sandbox), ' +
    'so the demo seed does not run: it would put made-up gardeners beside real ones. ' +
    `Set ${SEED_WITH_REAL_TWILIO_FLAG}=1 to seed anyway.`
  );
}
