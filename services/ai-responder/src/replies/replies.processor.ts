import { Injectable } from '@nestjs/common';
import type { JobPayload, SmsInboundJobResult } from '@sprout/contracts';
import { OnJob } from '@sprout/platform';
import { RepliesService } from './replies.service';

@Injectable()
export class RepliesProcessor {
  constructor(private readonly replies: RepliesService) {}

  @OnJob('sms.inbound')
  async answer(payload: JobPayload<'sms.inbound'>): Promise<SmsInboundJobResult> {
    return this.replies.reply(payload.messageId);
  }
}
