import { Controller, Get, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { TestDataQuery } from '@sprout/contracts';
import { ZodValidationPipe } from '@sprout/platform';
import type { z } from 'zod';
import { DashboardService } from './dashboard.service';
import type { DashboardMetricsResponse } from './dto';

@ApiTags('dashboard')
@ApiCookieAuth('sprout_session')
@Controller('api/dashboard')
export class DashboardController {
  constructor(private readonly dashboard: DashboardService) {}

  @Get('metrics')
  @ApiOperation({
    summary: "Overview cards: active users, today's messages, response time and cost, signups",
  })
  @ApiQuery({ name: 'showTestData', required: false, description: "'true' shows test users' data only" })
  async metrics(
    // Typed through z.output: the schema's own name would be emitted as the parameter's design type.
    @Query(new ZodValidationPipe(TestDataQuery)) query: z.output<typeof TestDataQuery>,
  ): Promise<DashboardMetricsResponse> {
    return this.dashboard.metrics(query.showTestData);
  }
}
