import { Module } from '@nestjs/common';
import { ConsentModule } from '../consent/consent.module';
import { TwilioSignatureGuard } from './twilio-signature.guard';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

@Module({
  imports: [ConsentModule],
  controllers: [WebhooksController],
  providers: [WebhooksService, TwilioSignatureGuard],
})
export class WebhooksModule {}
