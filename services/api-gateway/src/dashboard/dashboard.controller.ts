import { Controller } from '@nestjs/common';
import { type EndpointInput, api } from '@sprout/contracts';
import { Endpoint, Input } from '@sprout/platform';
import { DashboardService } from './dashboard.service';

@Controller()
export class DashboardController {
  constructor(private readonly dashboard: DashboardService) {}

  @Endpoint(api.dashboard.metrics)
  async metrics(@Input() { query }: EndpointInput<typeof api.dashboard.metrics>) {
    return this.dashboard.metrics(query.showTestData);
  }
}
