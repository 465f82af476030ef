import { createServiceApp, loadConfig, type ServiceApp } from '@sprout/platform';
import { AppModule } from './app.module';
import { SERVICE_NAME, type SmsGatewayConfig, smsGatewayConfig } from './config';

/**
 * The sms-gateway, initialised and listening on `port` (tests pass overrides such as their own
 * database, Redis prefix, port and the fake Twilio's URL).
 */
export const createApp = async (
  overrides: Partial<SmsGatewayConfig> = {},
  env: Record<string, string | undefined> = process.env,
): Promise<ServiceApp & { config: SmsGatewayConfig }> => {
  const config = loadConfig(smsGatewayConfig, env, overrides);
  const service = await createServiceApp({
    module: AppModule.forRoot(config),
    name: SERVICE_NAME,
    config,
    listenPort: config.port,
  });
  return { ...service, config };
};
