import {
  type ConfigOf,
  coreConfigFields,
  defineConfig,
  field,
  integerSchema,
  openAiConfigFields,
  parseHostList,
  portField,
  publicBaseUrlField,
  spendTimeZoneField,
  stringSchema,
  twilioConfigFields,
} from '@sprout/platform';
import { z } from 'zod';

export const SERVICE_NAME = 'image-processor';

/**
 * Where Twilio keeps MMS media: the API (media URLs, basic auth), which redirects to its CDN
 * (mms.twiliocdn.com when media auth is on), or to S3 for accounts without media auth.
 */
export const TWILIO_MEDIA_HOSTS =
  'api.twilio.com,media.twiliocdn.com,*.twiliocdn.com,s3-external-1.amazonaws.com';

const hostListSchema = (defaultValue: string, requirePort: boolean) =>
  z
    .string()
    .default(defaultValue)
    .refine(
      (value) => {
        try {
          parseHostList(value, { requirePort });
          return true;
        } catch {
          return false;
        }
      },
      {
        error: requirePort
          ? 'must be a comma-separated list of host:port'
          : 'must be a comma-separated list of hosts, *.domain or host:port',
      },
    )
    .transform((value): readonly string[] => parseHostList(value, { requirePort }));

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
  /** Hosts media URLs and their redirects may name; every other host is refused. */
  imageFetchAllowedHosts: field('IMAGE_FETCH_ALLOWED_HOSTS', hostListSchema(TWILIO_MEDIA_HOSTS, false)),
  /**
   * The sandbox's own media endpoints (host:port), fetched even on a private address. The
   * TWILIO_API_BASE_URL endpoint (the fake Twilio) is one already; no other port of that host is.
   */
  imageFetchSandboxMediaHosts: field('IMAGE_FETCH_SANDBOX_MEDIA_HOSTS', hostListSchema('', true)),
  /** The stack's public origin: console-typed URLs of its own sample images are read in place. */
  publicBaseUrl: publicBaseUrlField,
  /** The day the daily spending limit counts (IANA time zone), as ai-responder counts it. */
  spendTimeZone: spendTimeZoneField,
  /** Images one replica analyses at once (each a fetch and a model call). */
  imageAnalyzeConcurrency: field('IMAGE_ANALYZE_CONCURRENCY', integerSchema(4, 1, 100)),
});

export type ImageProcessorConfig = ConfigOf<typeof imageProcessorConfig>;
