import { Module } from '@nestjs/common';
import { ConsentModule } from '../consent/consent.module';
import { OutboundProcessor } from './outbound.processor';
import { OutboundService } from './outbound.service';

@Module({ imports: [ConsentModule], providers: [OutboundService, OutboundProcessor] })
export class OutboundModule {}
