import { Module } from '@nestjs/common';
import { GardenCalendarController } from './garden-calendar.controller';
import { GardenCalendarService } from './garden-calendar.service';

/** The garden calendar's console: subscribers, the schedule, ZIP previews, sends, alerts, the pause switch. */
@Module({
  controllers: [GardenCalendarController],
  providers: [GardenCalendarService],
})
export class GardenCalendarModule {}
