import {
  type ConfigOf,
  coreConfigFields,
  defineConfig,
  field,
  integerSchema,
  loadConfig,
  portField,
} from '@sprout/platform';

export const SERVICE_NAME = 'survey-scheduler';

const surveySchedulerConfig = defineConfig({
  ...coreConfigFields,
  port: portField(3003),
  /** Lifecycle runs (campaign targeting walks) one replica does at once; runs are idempotent. */
  surveyLifecycleConcurrency: field('SURVEY_LIFECYCLE_CONCURRENCY', integerSchema(1, 1, 20)),
});

export type SurveySchedulerConfig = ConfigOf<typeof surveySchedulerConfig>;

/** Validates the environment (throws a ConfigError naming each bad variable); overrides win. */
export const loadSurveySchedulerConfig = (
  overrides: Partial<SurveySchedulerConfig> = {},
  env: Record<string, string | undefined> = process.env,
): SurveySchedulerConfig => loadConfig(surveySchedulerConfig, env, overrides);
