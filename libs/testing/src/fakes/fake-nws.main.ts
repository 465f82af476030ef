// Standalone fake NWS for the local sandbox: node libs/testing/dist/fakes/fake-nws.main.js
// Env: FAKE_NWS_PORT (3012), FAKE_NWS_HOST (127.0.0.1). Mild weather everywhere: no freeze, no heat.
import { FakeNws } from './fake-nws';
import { portFrom, runStandalone } from './standalone';

runStandalone('fake-nws', async () => {
  const fake = await FakeNws.start({
    port: portFrom('FAKE_NWS_PORT', 3012),
    host: process.env.FAKE_NWS_HOST ?? '127.0.0.1',
  });
  return { close: () => fake.close(), describe: fake.url };
});
