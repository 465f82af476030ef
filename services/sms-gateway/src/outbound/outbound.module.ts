import { Module } from '@nestjs/common';
import { ConsentModule } from '../consent/consent.module';
import { OutboundProcessor } from './outbound.processor';
import { OutboundService } from './outbound.service';
import { SendCircuit } from './send-circuit';
import { SenderPacer } from './sender-pacer';
import { SmsSpending } from './sms-spending';

@Module({
  imports: [ConsentModule],
  providers: [OutboundService, OutboundProcessor, SendCircuit, SenderPacer, SmsSpending],
  exports: [SendCircuit, SenderPacer],
})
export class OutboundModule {}
