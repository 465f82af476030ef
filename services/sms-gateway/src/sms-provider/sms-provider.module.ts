import { Global, Module } from '@nestjs/common';
import { CONFIG } from '@sprout/platform';
import { type SmsProvider, TwilioSmsProvider } from '@sprout/sms';
import type { SmsGatewayConfig } from '../config';

/** Injection token of the SMS port (Twilio, or the fake Twilio sandbox via TWILIO_API_BASE_URL). */
export const SMS_PROVIDER = Symbol('sms-provider');

@Global()
@Module({
  providers: [
    {
      provide: SMS_PROVIDER,
      inject: [CONFIG],
      useFactory: (config: SmsGatewayConfig): SmsProvider =>
        new TwilioSmsProvider({
          accountSid: config.twilioAccountSid,
          authToken: config.twilioAuthToken,
          ...(config.twilioApiBaseUrl === undefined ? {} : { apiBaseUrl: config.twilioApiBaseUrl }),
        }),
    },
  ],
  exports: [SMS_PROVIDER],
})
export class SmsProviderModule {}
