import { Controller } from '@nestjs/common';
import { type EndpointInput, api } from '@sprout/contracts';
import { Endpoint, Input } from '@sprout/platform';
import { GardenCalendarService } from './garden-calendar.service';

/** The garden calendar screen's endpoints. */
@Controller()
export class GardenCalendarController {
  constructor(private readonly calendar: GardenCalendarService) {}

  @Endpoint(api.gardenCalendar.summary)
  async summary() {
    return this.calendar.summary();
  }

  @Endpoint(api.gardenCalendar.subscribers)
  async subscribers(@Input() { query }: EndpointInput<typeof api.gardenCalendar.subscribers>) {
    return this.calendar.subscribers(query.page, query.pageSize);
  }

  @Endpoint(api.gardenCalendar.upcoming)
  async upcoming() {
    return this.calendar.upcoming();
  }

  @Endpoint(api.gardenCalendar.preview)
  preview(@Input() { query }: EndpointInput<typeof api.gardenCalendar.preview>) {
    return this.calendar.preview(query.zip, query.from);
  }

  @Endpoint(api.gardenCalendar.sends)
  async sends(@Input() { query }: EndpointInput<typeof api.gardenCalendar.sends>) {
    return this.calendar.sends(query.limit);
  }

  @Endpoint(api.gardenCalendar.alerts)
  async alerts(@Input() { query }: EndpointInput<typeof api.gardenCalendar.alerts>) {
    return this.calendar.alerts(query.limit);
  }

  @Endpoint(api.gardenCalendar.pause)
  async pause(@Input() { body }: EndpointInput<typeof api.gardenCalendar.pause>) {
    return { paused: await this.calendar.setPaused(body.paused) };
  }
}
