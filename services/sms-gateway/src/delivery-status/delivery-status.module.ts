import { Module } from '@nestjs/common';
import { DeliveryStatusProcessor } from './delivery-status.processor';
import { DeliveryStatusService } from './delivery-status.service';

@Module({
  providers: [DeliveryStatusService, DeliveryStatusProcessor],
  exports: [DeliveryStatusService],
})
export class DeliveryStatusModule {}
