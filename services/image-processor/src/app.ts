import { type ServiceApp, createServiceApp, loadConfig } from '@sprout/platform';
import { AppModule } from './app.module';
import { type ImageProcessorConfig, SERVICE_NAME, imageProcessorConfig } from './config';

/**
 * The image-processor, initialised and listening on `port` (tests pass overrides such as their
 * own database, Redis prefix, port 0 and the fake OpenAI's URL).
 */
export const createApp = async (
  overrides: Partial<ImageProcessorConfig> = {},
  env: Record<string, string | undefined> = process.env,
): Promise<ServiceApp & { config: ImageProcessorConfig }> => {
  const config = loadConfig(imageProcessorConfig, env, overrides);
  const service = await createServiceApp({
    module: AppModule.forRoot(config),
    name: SERVICE_NAME,
    config,
    listenPort: config.port,
  });
  return { ...service, config };
};
