import { Module } from '@nestjs/common';
import { CalendarSenderService } from './calendar-sender.service';
import { CalendarProcessor } from './calendar.processor';
import { NwsClient } from './nws-client';
import { TipsPlannerService } from './tips-planner.service';
import { WeatherWatchService } from './weather-watch.service';

/** The garden calendar: tips planned from frost dates, frost and heat alerts from the NWS, sent in local daytime. */
@Module({
  providers: [NwsClient, TipsPlannerService, CalendarSenderService, WeatherWatchService, CalendarProcessor],
})
export class CalendarModule {}
