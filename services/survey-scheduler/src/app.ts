import { type ServiceApp, createServiceApp } from '@sprout/platform';
import { AppModule } from './app.module';
import { SERVICE_NAME, type SurveySchedulerConfig, loadSurveySchedulerConfig } from './config';

/**
 * The survey-scheduler, initialised and listening on `port` (tests pass overrides such as their
 * own database, Redis prefix and port 0).
 */
export const createApp = async (
  overrides: Partial<SurveySchedulerConfig> = {},
  env: Record<string, string | undefined> = process.env,
): Promise<ServiceApp & { config: SurveySchedulerConfig }> => {
  const config = loadSurveySchedulerConfig(overrides, env);
  const service = await createServiceApp({
    module: AppModule.forRoot(config),
    name: SERVICE_NAME,
    config,
    listenPort: config.port,
  });
  return { ...service, config };
};
