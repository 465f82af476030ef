import { Module } from '@nestjs/common';
import { InboundSweepService } from './inbound-sweep.service';
import { InboundSweeper } from './inbound-sweeper';

@Module({
  providers: [InboundSweepService, InboundSweeper],
  exports: [InboundSweepService],
})
export class InboundSweepModule {}
