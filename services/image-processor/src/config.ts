import {
  type ConfigOf,
  type PrivateHostAllowance,
  coreConfigFields,
  defineConfig,
  field,
  integerSchema,
  openAiConfigFields,
  parsePrivateHostAllowance,
  portField,
  stringSchema,
  twilioConfigFields,
} from '@sprout/platform';
import { z } from 'zod';

export const SERVICE_NAME = 'image-processor';

const allowanceSchema = z
  .string()
  .optional()
  .refine(
    (value) => {
      try {
        parsePrivateHostAllowance(value);
        return true;
      } catch {
        return false;
      }
    },
    { error: 'must be true, false or a comma-separated list of IP addresses and CIDRs' },
  )
  .transform((value): PrivateHostAllowance => parsePrivateHostAllowance(value));

export const imageProcessorConfig = defineConfig({
  ...coreConfigFields,
  port: portField(3004),
  ...openAiConfigFields,
  ...twilioConfigFields,
  /** The model for images when no ai_models row is live. */
  imageAnalysisModel: field('IMAGE_ANALYSIS_MODEL', stringSchema('gpt-4o-mini')),
  imageAnalysisTimeoutMs: field('IMAGE_ANALYSIS_TIMEOUT_MS', integerSchema(30_000, 1_000, 300_000)),
  imageFetchTimeoutMs: field('IMAGE_FETCH_TIMEOUT_MS', integerSchema(10_000, 500, 120_000)),
  /** Twilio accepts MMS media up to 5 MB. */
  imageFetchMaxBytes: field('IMAGE_FETCH_MAX_BYTES', integerSchema(5 * 1024 * 1024, 1024, 20 * 1024 * 1024)),
  /**
   * Private addresses image URLs may point at: only for tests and the local sandbox (fakes on
   * 127.0.0.1). false (default), true, or a list such as "127.0.0.1,::1".
   */
  imageFetchAllowPrivateHosts: field('IMAGE_FETCH_ALLOW_PRIVATE_HOSTS', allowanceSchema),
});

export type ImageProcessorConfig = ConfigOf<typeof imageProcessorConfig>;
