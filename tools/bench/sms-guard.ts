// The benchmarks send thousands of texts. The only SMS endpoint they may use is the fake Twilio they
// start on this machine: a service started without TWILIO_API_BASE_URL would send through the real
// api.twilio.com, so a bench refuses to start one unless that URL is a loopback address.

type Env = Readonly<Record<string, string | undefined>>;

const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/** Why a service with this environment may not run in a bench, or null when its Twilio is on loopback. */
export function nonLoopbackTwilio(env: Env): string | null {
  const raw = (env.TWILIO_API_BASE_URL ?? '').trim();
  if (raw === '') return 'TWILIO_API_BASE_URL is not set, so texts would go to the real Twilio';
  let host: string;
  try {
    host = new URL(raw).hostname;
  } catch {
    return `TWILIO_API_BASE_URL ${raw} is not a URL`;
  }
  return LOOPBACK_HOST.test(host) ? null : `TWILIO_API_BASE_URL ${raw} is not on loopback`;
}

/** Throws unless the environment sends texts only to a Twilio on this machine (the fake). */
export function assertLoopbackTwilio(env: Env): void {
  const refusal = nonLoopbackTwilio(env);
  if (refusal !== null)
    throw new Error(`refusing to start a service: ${refusal}; a bench sends only to the fake Twilio`);
}
