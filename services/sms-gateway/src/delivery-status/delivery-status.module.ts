import { Module } from '@nestjs/common';
import { ConsentModule } from '../consent/consent.module';
import { DeliveryStatusProcessor } from './delivery-status.processor';
import { DeliveryStatusService } from './delivery-status.service';
import { StatusReconciler } from './status-reconciler';

@Module({
  imports: [ConsentModule],
  providers: [DeliveryStatusService, DeliveryStatusProcessor, StatusReconciler],
  exports: [DeliveryStatusService],
})
export class DeliveryStatusModule {}
