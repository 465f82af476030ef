import { type DynamicModule, Module } from '@nestjs/common';
import { PlatformModule } from '@sprout/platform';
import { SERVICE_NAME, type SmsGatewayConfig } from './config';
import { DeliveryStatusModule } from './delivery-status/delivery-status.module';
import { InboundSweepModule } from './inbound-sweep/inbound-sweep.module';
import { OutboundModule } from './outbound/outbound.module';
import { SmsProviderModule } from './sms-provider/sms-provider.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({})
export class AppModule {
  static forRoot(config: SmsGatewayConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({
          name: SERVICE_NAME,
          config,
          workers: {
            owns: ['sms.outbound', 'sms.status', 'delivery.check', 'sms.inbound-sweep'],
            concurrency: {
              'sms.outbound': config.smsOutboundConcurrency,
              'sms.status': config.smsStatusConcurrency,
              'delivery.check': config.deliveryCheckConcurrency,
              'sms.inbound-sweep': 1,
            },
            rateLimits: { 'sms.outbound': { max: config.smsSendRatePerSecond, durationMs: 1000 } },
          },
        }),
        SmsProviderModule,
        WebhooksModule,
        OutboundModule,
        DeliveryStatusModule,
        InboundSweepModule,
      ],
    };
  }
}
