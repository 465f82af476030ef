import { Controller } from '@nestjs/common';
import { type EndpointInput, api } from '@sprout/contracts';
import { Endpoint, Input } from '@sprout/platform';
import { DeliveryCheckService } from './delivery-check.service';

@Controller()
export class DeliveryCheckController {
  constructor(private readonly deliveryCheck: DeliveryCheckService) {}

  @Endpoint(api.messages.checkDelivery)
  async check(@Input() { params }: EndpointInput<typeof api.messages.checkDelivery>) {
    const { checked, updated } = await this.deliveryCheck.check(params.id);
    return {
      success: true,
      checked,
      updated,
      message:
        checked === 0
          ? 'No messages are waiting for a delivery status.'
          : `Checked ${checked} message${checked === 1 ? '' : 's'}; ${updated} updated.`,
    };
  }
}
