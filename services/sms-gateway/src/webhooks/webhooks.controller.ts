import { Controller, UseGuards } from '@nestjs/common';
import { type EndpointInput, api } from '@sprout/contracts';
import { Endpoint, Input } from '@sprout/platform';
import { TwilioSignatureGuard } from './twilio-signature.guard';
import { WebhooksService } from './webhooks.service';

/** Empty TwiML: the reply goes out later through the API, not in the webhook answer. */
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

// The guard runs before @Input() parses the form: an unsigned post is a 403, never a 400.
@Controller()
@UseGuards(TwilioSignatureGuard)
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Endpoint(api.webhooks.inboundSms)
  async inbound(@Input() { body }: EndpointInput<typeof api.webhooks.inboundSms>) {
    await this.webhooks.receiveInbound(body);
    return EMPTY_TWIML;
  }

  @Endpoint(api.webhooks.statusCallback)
  async status(@Input() { body }: EndpointInput<typeof api.webhooks.statusCallback>) {
    await this.webhooks.receiveStatus(body);
  }
}
