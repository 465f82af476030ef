import { Inject, Injectable } from '@nestjs/common';
import { OpenAiChatModel } from '@sprout/llm';
import { CONFIG } from '@sprout/platform';
import { TwilioSmsProvider } from '@sprout/sms';
import { type MonitorConfig } from '../config';

/** The external providers the monitor checks, built once from configuration. */
@Injectable()
export class ProviderClients {
  /** Null without OPENAI_API_KEY: the offline advisor answers then. */
  readonly openAi: OpenAiChatModel | null;
  /** Checked by fetching the account (client.api.v2010.accounts(sid).fetch()). */
  readonly sms: TwilioSmsProvider;
  /** Where SMS calls go: the configured base URL (sandbox) or Twilio itself. */
  readonly smsApiOrigin: string;

  constructor(@Inject(CONFIG) config: MonitorConfig) {
    this.openAi =
      config.openaiApiKey === undefined
        ? null
        : new OpenAiChatModel({
            apiKey: config.openaiApiKey,
            ...(config.openaiBaseUrl === undefined ? {} : { baseURL: config.openaiBaseUrl }),
            timeoutMs: config.checkTimeoutMs,
          });
    this.sms = new TwilioSmsProvider({
      accountSid: config.twilioAccountSid,
      authToken: config.twilioAuthToken,
      ...(config.twilioApiBaseUrl === undefined ? {} : { apiBaseUrl: config.twilioApiBaseUrl }),
      timeoutMs: config.checkTimeoutMs,
    });
    this.smsApiOrigin = new URL(config.twilioApiBaseUrl ?? 'https://api.twilio.com').origin;
  }
}
