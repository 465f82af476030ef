import { Controller, Get, Header, HttpCode, ServiceUnavailableException } from '@nestjs/common';
import { pingDatabase } from '@sprout/domain';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { Metrics } from '../metrics/metrics';

export interface ReadinessCheck {
  status: 'up' | 'down';
  error?: string;
}
export interface ReadinessReport {
  status: 'ok' | 'error';
  checks: { database: ReadinessCheck; redis: ReadinessCheck };
}

const CHECK_TIMEOUT_MS = 1_500;

const withTimeout = async (work: () => Promise<unknown>, label: string): Promise<ReadinessCheck> => {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      work(),
      new Promise((_resolve, reject) => {
        timer = setTimeout(
          () => reject(new Error(`${label} did not answer within ${CHECK_TIMEOUT_MS} ms`)),
          CHECK_TIMEOUT_MS,
        );
      }),
    ]);
    return { status: 'up' };
  } catch (error) {
    return { status: 'down', error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
};

/** Liveness, readiness (Postgres and Redis) and Prometheus metrics for every service. */
@Controller()
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly redis: Redis,
    private readonly metrics: Metrics,
  ) {}

  @Get('health/live')
  @HttpCode(200)
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('health/ready')
  async ready(): Promise<ReadinessReport> {
    const [database, redis] = await Promise.all([
      withTimeout(() => pingDatabase(this.dataSource), 'Postgres'),
      withTimeout(() => this.redis.ping(), 'Redis'),
    ]);
    const report: ReadinessReport = {
      status: database.status === 'up' && redis.status === 'up' ? 'ok' : 'error',
      checks: { database, redis },
    };
    if (report.status !== 'ok') throw new ServiceUnavailableException(report);
    return report;
  }

  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  async metricsText(): Promise<string> {
    return (await this.metrics.expose()).body;
  }
}
