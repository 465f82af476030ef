import { Module } from '@nestjs/common';
import { ConsentModule } from '../consent/consent.module';
import { DeliveryStatusProcessor } from './delivery-status.processor';
import { DeliveryStatusService } from './delivery-status.service';

@Module({
  imports: [ConsentModule],
  providers: [DeliveryStatusService, DeliveryStatusProcessor],
  exports: [DeliveryStatusService],
})
export class DeliveryStatusModule {}
