import { createServiceApp, loadConfig, type ServiceApp } from '@sprout/platform';
import { AppModule } from './app.module';
import { type AiResponderConfig, SERVICE_NAME, aiResponderConfig } from './config';

/** The ai-responder, initialised (workers running) and listening on `port` (health and metrics). */
export const createApp = async (
  overrides: Partial<AiResponderConfig> = {},
  env: Record<string, string | undefined> = process.env,
): Promise<ServiceApp & { config: AiResponderConfig }> => {
  const config = loadConfig(aiResponderConfig, env, overrides);
  const service = await createServiceApp({
    module: AppModule.forRoot(config),
    name: SERVICE_NAME,
    config,
    listenPort: config.port,
  });
  return { ...service, config };
};
