// Standalone fake OpenAI for the local sandbox: node libs/testing/dist/fakes/fake-openai.main.js
// Env: FAKE_OPENAI_PORT (3011), FAKE_OPENAI_HOST (0.0.0.0), OPENAI_API_KEY (the key clients must send).
import { FakeOpenAI } from './fake-openai';

const SANDBOX_OPENAI_API_KEY = 'sandbox-openai-key';

async function main(): Promise<void> {
  const port = Number(process.env.FAKE_OPENAI_PORT ?? 3011);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`FAKE_OPENAI_PORT is not a port: ${process.env.FAKE_OPENAI_PORT}`);
  const fake = await FakeOpenAI.start({
    port,
    host: process.env.FAKE_OPENAI_HOST ?? '0.0.0.0',
    apiKey: process.env.OPENAI_API_KEY || SANDBOX_OPENAI_API_KEY,
  });
  process.stdout.write(`fake-openai listening on ${fake.baseURL}\n`);
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
    `fake-openai failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
