// Standalone fake Twilio for the local sandbox: node libs/testing/dist/fakes/fake-twilio.main.js
// Env: FAKE_TWILIO_PORT (3010), FAKE_TWILIO_HOST (0.0.0.0), TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN.
import { FakeTwilio } from './fake-twilio';
import { portFrom, runStandalone } from './standalone';

const SANDBOX_TWILIO_ACCOUNT_SID = `ACsandbox${'0'.repeat(25)}`;
const SANDBOX_TWILIO_AUTH_TOKEN = 'sandbox-token';

runStandalone('fake-twilio', async () => {
  const fake = await FakeTwilio.start({
    port: portFrom('FAKE_TWILIO_PORT', 3010),
    host: process.env.FAKE_TWILIO_HOST ?? '0.0.0.0',
    accountSid: process.env.TWILIO_ACCOUNT_SID || SANDBOX_TWILIO_ACCOUNT_SID,
    authToken: process.env.TWILIO_AUTH_TOKEN || SANDBOX_TWILIO_AUTH_TOKEN,
    callbackDelayMs: Number(process.env.FAKE_TWILIO_CALLBACK_DELAY_MS ?? 500),
  });
  return { close: () => fake.close(), describe: `${fake.url} (account ${fake.accountSid})` };
});
