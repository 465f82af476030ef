import { z } from 'zod';
import {
  type ConfigOf,
  conversationIdleTimeoutField,
  coreConfigFields,
  defineConfig,
  field,
  integerSchema,
  portField,
  publicBaseUrlField,
  twilioConfigFields,
} from '@sprout/platform';

export const SERVICE_NAME = 'sms-gateway';

export const smsGatewayConfig = defineConfig({
  ...coreConfigFields,
  port: portField(3001),
  publicBaseUrl: publicBaseUrlField,
  ...twilioConfigFields,
  /** A gap longer than this opens a new conversation for the next inbound message. */
  conversationIdleTimeoutMs: conversationIdleTimeoutField,
  /** Outbound sends per second from our number (bursts above it wait in the queue, avoiding 429s). */
  smsSendRatePerSecond: field('SMS_SEND_RATE_PER_SECOND', integerSchema(10, 1, 1000)),
  /** The contact the HELP / INFO answer gives (the same variable the public pages show). */
  contactEmail: field(
    'CONTACT_EMAIL',
    z
      .string()
      .default('hello@sprout.example')
      .refine((v) => z.email().safeParse(v).success, { error: 'must be an email address' }),
  ),
});
export type SmsGatewayConfig = ConfigOf<typeof smsGatewayConfig>;
