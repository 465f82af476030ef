import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { JobResult } from '@sprout/contracts';
import { CONFIG, JobQueues, LOGGER, OnJob } from '@sprout/platform';
import type { Logger } from 'pino';
import type { SurveySchedulerConfig } from '../config';
import { CalendarSenderService } from './calendar-sender.service';
import { TipsPlannerService } from './tips-planner.service';
import { WeatherWatchService } from './weather-watch.service';

/** Scheduler ids: upserting them again on every start keeps exactly one of each. */
export const CALENDAR_SCHEDULERS = {
  plan: { id: 'calendar-plan-hourly', everyMs: 60 * 60_000 },
  send: { id: 'calendar-send-every-minute', everyMs: 60_000 },
  weather: { id: 'calendar-weather' },
} as const;

/** The garden calendar's periodic jobs: plan tips (hourly), send what is due (every minute), check the NWS. */
@Injectable()
export class CalendarProcessor implements OnApplicationBootstrap {
  constructor(
    private readonly planner: TipsPlannerService,
    private readonly sender: CalendarSenderService,
    private readonly weather: WeatherWatchService,
    private readonly queues: JobQueues,
    @Inject(CONFIG) private readonly config: SurveySchedulerConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { plan, send, weather } = CALENDAR_SCHEDULERS;
    await this.queues.schedule('calendar.plan', plan.id, plan.everyMs, {});
    await this.queues.schedule('calendar.send', send.id, send.everyMs, {});
    await this.queues.schedule('calendar.weather', weather.id, this.config.nwsCheckEveryMs, {});
    this.logger.info({ nwsCheckEveryMs: this.config.nwsCheckEveryMs }, 'garden calendar scheduled');
  }

  @OnJob('calendar.plan')
  async plan(): Promise<JobResult<'calendar.plan'>> {
    return this.planner.plan(new Date());
  }

  @OnJob('calendar.send')
  async send(): Promise<JobResult<'calendar.send'>> {
    return this.sender.sendDue(new Date());
  }

  @OnJob('calendar.weather')
  async checkWeather(): Promise<JobResult<'calendar.weather'>> {
    return this.weather.check(new Date());
  }
}
