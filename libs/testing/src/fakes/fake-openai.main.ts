// Standalone fake OpenAI for the local sandbox: node libs/testing/dist/fakes/fake-openai.main.js
// Env: FAKE_OPENAI_PORT (3011), FAKE_OPENAI_HOST (0.0.0.0), OPENAI_API_KEY (the key clients must send).
import { FakeOpenAI } from './fake-openai';
import { portFrom, runStandalone } from './standalone';

const SANDBOX_OPENAI_API_KEY = 'sandbox-openai-key';

runStandalone('fake-openai', async () => {
  const fake = await FakeOpenAI.start({
    port: portFrom('FAKE_OPENAI_PORT', 3011),
    host: process.env.FAKE_OPENAI_HOST ?? '0.0.0.0',
    apiKey: process.env.OPENAI_API_KEY || SANDBOX_OPENAI_API_KEY,
  });
  return { close: () => fake.close(), describe: fake.baseURL };
});
