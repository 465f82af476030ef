import {
  type ConfigOf,
  coreConfigFields,
  defineConfig,
  field,
  integerSchema,
  openAiConfigFields,
  portField,
  twilioConfigFields,
} from '@sprout/platform';

export const SERVICE_NAME = 'monitor';

export const monitorConfig = defineConfig({
  ...coreConfigFields,
  port: portField(3005),
  ...openAiConfigFields,
  ...twilioConfigFields,
  /** Each health check (database, Redis, AI provider, SMS provider) fails after this long. */
  checkTimeoutMs: field('MONITOR_CHECK_TIMEOUT_MS', integerSchema(5_000, 100, 60_000)),
});

export type MonitorConfig = ConfigOf<typeof monitorConfig>;
