import {
  type ConfigOf,
  conversationIdleTimeoutField,
  coreConfigFields,
  defineConfig,
  field,
  gardenTipsPerMonthField,
  integerSchema,
  loadConfig,
  portField,
  stringSchema,
  urlSchema,
} from '@sprout/platform';

export const SERVICE_NAME = 'survey-scheduler';

const HOUR = 60 * 60 * 1000;

export const surveySchedulerConfig = defineConfig({
  ...coreConfigFields,
  port: portField(3003),
  /** Lifecycle runs (campaign targeting walks) one replica does at once; runs are idempotent. */
  surveyLifecycleConcurrency: field('SURVEY_LIFECYCLE_CONCURRENCY', integerSchema(1, 1, 20)),
  /** A calendar text continues the user's conversation when it is this recent, else opens one. */
  conversationIdleTimeoutMs: conversationIdleTimeoutField,
  gardenTipsPerMonth: gardenTipsPerMonthField,
  /** The National Weather Service API (the fake one in the sandbox). */
  nwsBaseUrl: field('NWS_BASE_URL', urlSchema('https://api.weather.gov', ['http:', 'https:'])),
  /** NWS asks every client to name itself and a contact in its User-Agent. */
  nwsUserAgent: field(
    'NWS_USER_AGENT',
    stringSchema('Sprout SMS garden advisor (frost and heat alerts; contact hello@sprout.example)', 8),
  ),
  /** One NWS request's time limit; a slow or dead NWS is an outage for that run, nothing more. */
  nwsTimeoutMs: field('NWS_TIMEOUT_MS', integerSchema(10_000, 500, 120_000)),
  /** How often subscribers' forecasts are checked for a freeze or heat extreme. */
  nwsCheckEveryMs: field('NWS_CHECK_EVERY_MS', integerSchema(3 * HOUR, 60_000, 24 * HOUR)),
});

export type SurveySchedulerConfig = ConfigOf<typeof surveySchedulerConfig>;

/** Validates the environment (throws a ConfigError naming each bad variable); overrides win. */
export const loadSurveySchedulerConfig = (
  overrides: Partial<SurveySchedulerConfig> = {},
  env: Record<string, string | undefined> = process.env,
): SurveySchedulerConfig => loadConfig(surveySchedulerConfig, env, overrides);
