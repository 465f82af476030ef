import { type ServiceApp, createServiceApp, loadConfig } from '@sprout/platform';
import { AppModule } from './app.module';
import { type MonitorConfig, SERVICE_NAME, monitorConfig } from './config';

/**
 * The monitor, initialised and listening on `port` (tests pass overrides such as their own
 * database, Redis prefix, port 0 and the fake OpenAI and Twilio URLs).
 */
export const createApp = async (
  overrides: Partial<MonitorConfig> = {},
  env: Record<string, string | undefined> = process.env,
): Promise<ServiceApp & { config: MonitorConfig }> => {
  const config = loadConfig(monitorConfig, env, overrides);
  const service = await createServiceApp({
    module: AppModule.forRoot(config),
    name: SERVICE_NAME,
    config,
    listenPort: config.port,
  });
  return { ...service, config };
};
