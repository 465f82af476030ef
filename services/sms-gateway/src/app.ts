import { defineWorkerService } from '@sprout/platform';
import { SERVICE_NAME, smsGatewayConfig } from './config';
import { DeliveryStatusModule } from './delivery-status/delivery-status.module';
import { InboundSweepModule } from './inbound-sweep/inbound-sweep.module';
import { OutboundModule } from './outbound/outbound.module';
import { SmsProviderModule } from './sms-provider/sms-provider.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/** The sms-gateway: Twilio webhooks in, texts out, delivery status and the inbound sweep. */
export const smsGateway = defineWorkerService({
  name: SERVICE_NAME,
  config: smsGatewayConfig,
  workers: (config) => ({
    owns: ['sms.outbound', 'sms.status', 'delivery.check', 'sms.inbound-sweep'],
    concurrency: {
      'sms.outbound': config.smsOutboundConcurrency,
      'sms.status': config.smsStatusConcurrency,
      'delivery.check': config.deliveryCheckConcurrency,
      'sms.inbound-sweep': 1,
    },
    rateLimits: { 'sms.outbound': { max: config.smsSendRatePerSecond, durationMs: 1000 } },
  }),
  imports: [SmsProviderModule, WebhooksModule, OutboundModule, DeliveryStatusModule, InboundSweepModule],
});

export const { createApp } = smsGateway;
