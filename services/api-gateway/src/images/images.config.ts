import {
  type ConfigOf,
  conversationIdleTimeoutField,
  defineConfig,
  field,
  integerSchema,
  loadConfig,
  publicBaseUrlField,
} from '@sprout/platform';

/**
 * Image monitoring's own settings. IMAGE_TEST_TIMEOUT_MS: how long POST /api/test/image-processing
 * waits for image-processor (its retries included). CONVERSATION_IDLE_TIMEOUT_MS: as for an SMS.
 * PUBLIC_BASE_URL: the stack's origin, where the validation suite's own samples are (read in place).
 */
const imagesConfig = defineConfig({
  testTimeoutMs: field('IMAGE_TEST_TIMEOUT_MS', integerSchema(60_000, 100, 10 * 60_000)),
  fetchTimeoutMs: field('IMAGE_FETCH_TIMEOUT_MS', integerSchema(10_000, 500, 120_000)),
  conversationIdleTimeoutMs: conversationIdleTimeoutField,
  publicBaseUrl: publicBaseUrlField,
});
export type ImagesConfig = ConfigOf<typeof imagesConfig>;

export const IMAGES_CONFIG = Symbol('sprout:images-config');

export const loadImagesConfig = (env: Record<string, string | undefined> = process.env): ImagesConfig =>
  loadConfig(imagesConfig, env);
