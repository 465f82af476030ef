import { conversationIdleTimeoutField, field, integerSchema, publicBaseUrlField } from '@sprout/platform';
import { moduleConfig, type ModuleConfigOf } from '../common/module-config';

/**
 * Image monitoring's own settings. IMAGE_TEST_TIMEOUT_MS: how long POST /api/test/image-processing
 * waits for image-processor (its retries included). CONVERSATION_IDLE_TIMEOUT_MS: as for an SMS.
 * PUBLIC_BASE_URL: the stack's origin, where the validation suite's own samples are (read in place).
 */
export const imagesConfig = moduleConfig('images', {
  testTimeoutMs: field('IMAGE_TEST_TIMEOUT_MS', integerSchema(60_000, 100, 10 * 60_000)),
  fetchTimeoutMs: field('IMAGE_FETCH_TIMEOUT_MS', integerSchema(10_000, 500, 120_000)),
  conversationIdleTimeoutMs: conversationIdleTimeoutField,
  publicBaseUrl: publicBaseUrlField,
});
export type ImagesConfig = ModuleConfigOf<typeof imagesConfig>;
export const IMAGES_CONFIG = imagesConfig.token;
