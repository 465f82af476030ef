import { Module } from '@nestjs/common';
import { OutboundProcessor } from './outbound.processor';
import { OutboundService } from './outbound.service';
import { SendCircuit } from './send-circuit';
import { SenderPacer } from './sender-pacer';
import { SmsSpending } from './sms-spending';

@Module({
  providers: [OutboundService, OutboundProcessor, SendCircuit, SenderPacer, SmsSpending],
  exports: [SendCircuit, SenderPacer],
})
export class OutboundModule {}
