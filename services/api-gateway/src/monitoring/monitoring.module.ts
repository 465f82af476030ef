import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { DashboardService } from '../dashboard/dashboard.service';
import { MonitorChecksService } from './monitor-checks.service';
import { MonitorStateReader } from './monitor-state.reader';
import { MONITORING_CONFIG, loadMonitoringConfig } from './monitoring.config';
import { MonitoringController } from './monitoring.controller';
import { MonitoringFiguresService } from './monitoring-figures.service';
import { QueuesService } from './queues.service';

/**
 * Service health, proactive monitoring, the monitoring dashboard, the fallback system and the
 * queues panel. Health and predictions come from the monitor service (its Redis state and jobs).
 */
@Module({
  imports: [AuthModule],
  controllers: [MonitoringController],
  providers: [
    { provide: MONITORING_CONFIG, useFactory: () => loadMonitoringConfig() },
    // The Overview's figures, the one place they are computed (GET /api/admin/metrics shows them too).
    DashboardService,
    MonitorStateReader,
    MonitorChecksService,
    MonitoringFiguresService,
    QueuesService,
  ],
})
export class MonitoringModule {}
