import { Module } from '@nestjs/common';
import { DeliveryCheckController } from './delivery-check.controller';
import { DeliveryCheckService } from './delivery-check.service';

/** The admin "Check Delivery Status" button: a delivery.check job sms-gateway runs. */
@Module({
  controllers: [DeliveryCheckController],
  providers: [DeliveryCheckService],
})
export class DeliveryCheckModule {}
