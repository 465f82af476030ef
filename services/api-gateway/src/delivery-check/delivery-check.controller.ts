import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiCookieAuth, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { CheckDeliveryResponse } from '@sprout/contracts';
import { ZodValidationPipe } from '@sprout/platform';
import { z } from 'zod';
import { DeliveryCheckService } from './delivery-check.service';

const ConversationId = z.uuid({ error: 'Conversation id must be a UUID' });
/** JSON with no fields; fields sent anyway are ignored. */
const CheckDeliveryBody = z.object({}, { error: 'The body must be a JSON object' }).nullish();

/** The answer: the contract's fields plus how many statuses changed. */
export interface CheckDeliveryAnswer extends CheckDeliveryResponse {
  /** Messages whose stored status changed. */
  updated: number;
}

@ApiTags('admin conversations')
@ApiCookieAuth('sprout_session')
@Controller('api/admin/conversations')
export class DeliveryCheckController {
  constructor(private readonly deliveryCheck: DeliveryCheckService) {}

  @Post(':id/check-delivery')
  @HttpCode(200)
  @ApiOperation({
    summary: "Re-read from Twilio the status of a conversation's messages that are not final yet",
    description:
      'Waits for the check (at most 15 s; 504 after that, 502 when Twilio cannot be reached) and ' +
      'answers how many messages were checked and how many changed.',
  })
  @ApiParam({ name: 'id', description: 'Conversation id (UUID)' })
  @ApiBody({ required: false, schema: { type: 'object', properties: {} } })
  async check(
    @Param('id', new ZodValidationPipe(ConversationId)) id: string,
    @Body(new ZodValidationPipe(CheckDeliveryBody)) _body: unknown,
  ): Promise<CheckDeliveryAnswer> {
    const { checked, updated } = await this.deliveryCheck.check(id);
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
