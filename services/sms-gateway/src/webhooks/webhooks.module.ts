import { Module } from '@nestjs/common';
import { TwilioSignatureGuard } from './twilio-signature.guard';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

@Module({
  controllers: [WebhooksController],
  providers: [WebhooksService, TwilioSignatureGuard],
})
export class WebhooksModule {}
