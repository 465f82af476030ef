import { loadConfig } from '@sprout/platform';
import { FakeOpenAI, FakeTwilio, type TestStores } from '@sprout/testing';
import { type MonitorConfig, monitorConfig } from '../../src/config';

export interface ProviderFakes {
  openai: FakeOpenAI;
  twilio: FakeTwilio;
  /** The monitor's configuration on the stores, checking these fakes. */
  config: MonitorConfig;
}

/** The fake OpenAI and Twilio the monitor checks, adopted by the stores (closed with them). */
export const startProviderFakes = async (
  stores: TestStores,
  overrides: Partial<MonitorConfig> = {},
): Promise<ProviderFakes> => {
  const [openai, twilio] = await Promise.all([FakeOpenAI.start(), FakeTwilio.start()]);
  stores.adopt(openai);
  stores.adopt(twilio);
  const config = loadConfig(
    monitorConfig,
    {},
    {
      ...stores.config,
      openaiApiKey: openai.apiKey,
      openaiBaseUrl: openai.baseURL,
      twilioAccountSid: twilio.accountSid,
      twilioAuthToken: twilio.authToken,
      twilioApiBaseUrl: twilio.url,
      ...overrides,
    },
  );
  return { openai, twilio, config };
};
