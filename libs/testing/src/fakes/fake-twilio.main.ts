// Standalone fake Twilio for the local sandbox: node libs/testing/dist/fakes/fake-twilio.main.js
// Env: FAKE_TWILIO_PORT (3010), FAKE_TWILIO_HOST (0.0.0.0), TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN.
import { FakeTwilio } from './fake-twilio';

const SANDBOX_TWILIO_ACCOUNT_SID = `ACsandbox${'0'.repeat(25)}`;
const SANDBOX_TWILIO_AUTH_TOKEN = 'sandbox-token';

async function main(): Promise<void> {
  const port = Number(process.env.FAKE_TWILIO_PORT ?? 3010);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`FAKE_TWILIO_PORT is not a port: ${process.env.FAKE_TWILIO_PORT}`);
  const fake = await FakeTwilio.start({
    port,
    host: process.env.FAKE_TWILIO_HOST ?? '0.0.0.0',
    accountSid: process.env.TWILIO_ACCOUNT_SID || SANDBOX_TWILIO_ACCOUNT_SID,
    authToken: process.env.TWILIO_AUTH_TOKEN || SANDBOX_TWILIO_AUTH_TOKEN,
    callbackDelayMs: Number(process.env.FAKE_TWILIO_CALLBACK_DELAY_MS ?? 500),
  });
  process.stdout.write(`fake-twilio listening on ${fake.url} (account ${fake.accountSid})\n`);
  const stop = (): void => {
    fake.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `fake-twilio failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
