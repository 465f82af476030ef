import { Body, Controller, Header, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ZodValidationPipe } from '@sprout/platform';
import { InboundSmsForm, StatusCallbackForm } from './twilio-forms';
import { TwilioSignatureGuard } from './twilio-signature.guard';
import { WebhooksService } from './webhooks.service';

/** Empty TwiML: the reply goes out later through the API, not in the webhook answer. */
export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

@Controller('webhooks/twilio')
@UseGuards(TwilioSignatureGuard)
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post('sms')
  @HttpCode(200)
  @Header('Content-Type', 'text/xml')
  async inbound(@Body(new ZodValidationPipe(InboundSmsForm)) form: InboundSmsForm): Promise<string> {
    await this.webhooks.receiveInbound(form);
    return EMPTY_TWIML;
  }

  @Post('status')
  @HttpCode(204)
  async status(@Body(new ZodValidationPipe(StatusCallbackForm)) form: StatusCallbackForm): Promise<void> {
    await this.webhooks.receiveStatus(form);
  }
}
