import { Module } from '@nestjs/common';
import { DeliveryStatusProcessor } from './delivery-status.processor';
import { DeliveryStatusService } from './delivery-status.service';
import { StatusReconciler } from './status-reconciler';

@Module({
  providers: [DeliveryStatusService, DeliveryStatusProcessor, StatusReconciler],
  exports: [DeliveryStatusService],
})
export class DeliveryStatusModule {}
