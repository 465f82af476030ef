import { Module } from '@nestjs/common';
import { InboundSweepProcessor } from './inbound-sweep.processor';
import { InboundSweepService } from './inbound-sweep.service';

@Module({
  providers: [InboundSweepService, InboundSweepProcessor],
  exports: [InboundSweepService],
})
export class InboundSweepModule {}
