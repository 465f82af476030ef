import { z } from 'zod';
import {
  adminConfigFields,
  type ConfigOf,
  coreConfigFields,
  defineConfig,
  field,
  gardenTipsPerMonthField,
  gardeningConfigFields,
  integerSchema,
  loadConfig,
  openAiConfigFields,
  portField,
  spendTimeZoneField,
  twilioConfigFields,
  webConfigFields,
} from '@sprout/platform';

const HOUR = 60 * 60;
const DAY = 24 * HOUR;

const apiGatewayConfig = defineConfig({
  ...coreConfigFields,
  port: portField(3000),
  /** The number people text, shown on the public pages. */
  twilioPhoneNumber: twilioConfigFields.twilioPhoneNumber,
  /** The contact address shown on the public pages. */
  contactEmail: field(
    'CONTACT_EMAIL',
    z
      .string()
      .default('hello@sprout.example')
      .refine((v) => z.email().safeParse(v).success, { error: 'must be an email address' }),
  ),
  ...adminConfigFields,
  ...webConfigFields,
  /** Said in the TIPS confirmation the simulator records. */
  gardenTipsPerMonth: gardenTipsPerMonthField,
  ...gardeningConfigFields,
  /** Model management reads the provider's model list with this key (none: our price table's). */
  ...openAiConfigFields,
  /** The day the daily spending limit counts (IANA time zone), as ai-responder counts it. */
  spendTimeZone: spendTimeZoneField,
  /** Sliding idle timeout of an admin session. */
  sessionIdleTimeoutSeconds: field('SESSION_IDLE_TIMEOUT_SECONDS', integerSchema(8 * HOUR, 1, 30 * DAY)),
  /** Hard limit on an admin session's age, however active. */
  sessionAbsoluteTimeoutSeconds: field(
    'SESSION_ABSOLUTE_TIMEOUT_SECONDS',
    integerSchema(7 * DAY, 1, 365 * DAY),
  ),
  /** Failed logins allowed per account, and separately per client IP, within the window. */
  loginMaxFailures: field('LOGIN_MAX_FAILURES', integerSchema(5, 1, 1000)),
  loginFailureWindowSeconds: field('LOGIN_FAILURE_WINDOW_SECONDS', integerSchema(15 * 60, 1, DAY)),
  /** Beta signups accepted per client IP per hour. */
  signupRateLimitPerHour: field('SIGNUP_RATE_LIMIT_PER_HOUR', integerSchema(10, 1, 100_000)),
  /**
   * The session cookie's Secure flag (and HSTS): true or false; unset, true when NODE_ENV is
   * production. Never taken from a request header.
   */
  cookieSecure: field(
    'COOKIE_SECURE',
    z
      .string()
      .optional()
      .refine((v) => v === undefined || ['true', 'false'].includes(v.trim().toLowerCase()), {
        error: 'must be true or false',
      })
      .transform((v) => (v === undefined ? undefined : v.trim().toLowerCase() === 'true')),
  ),
});

/** Whether cookies are Secure: COOKIE_SECURE, else on in production. */
export const cookieSecureOf = (config: Pick<ApiGatewayConfig, 'cookieSecure' | 'nodeEnv'>): boolean =>
  config.cookieSecure ?? config.nodeEnv === 'production';

export type ApiGatewayConfig = ConfigOf<typeof apiGatewayConfig>;

/** Reads the environment once; `overrides` (typed values) win, as tests use them. */
export const loadApiGatewayConfig = (overrides: Partial<ApiGatewayConfig> = {}): ApiGatewayConfig =>
  loadConfig(apiGatewayConfig, process.env, overrides);
